// The `studio` command runs from the command line's bundle (out/cli/studio.cjs, electron/launch/bundles.mjs)
// rather than through tsx. A start loads one compiled file instead of compiling a few hundred TypeScript
// files. And a worker lives for hours: under tsx's loader, every import() of its life is a round trip to
// the loader's own thread (music-metadata imports its parser for each voiceover it measures). Bundled, a
// worker's row after its start took 1 to 3 ms less CPU, and its start about 4 s less (docs/performance.md).
// Plain JavaScript, as bin.mjs is: it runs before anything can compile TypeScript.
import { join } from 'node:path';
import { buildBundle, bundleIsStale, bundlePath, loadBundle } from '../launch/bundles.mjs';

const root = join(import.meta.dirname, '..', '..');

/**
 * The command line's bundle, made first when it is missing or older than a source under electron/ (about
 * two seconds), its code cache kept as the process exits. Null when it cannot be made (no esbuild, a
 * read-only install without one): the command then runs from its TypeScript.
 */
export async function cliBundle({ say = (line) => console.error(line) } = {}) {
  try {
    if (bundleIsStale(root, 'cli')) await buildBundle(root, 'cli');
    const { exports, codeCache, saveCodeCache } = loadBundle(root, 'cli');
    if (process.env.STUDIO_STARTUP_TRACE) say(`startup: ${bundlePath(root, 'cli')} loaded (code cache ${codeCache})`);
    process.once('exit', saveCodeCache);
    return exports;
  } catch (error) {
    say(`studio: running from the TypeScript sources; the command line's bundle could not be made (${error.message}).`);
    return null;
  }
}
