// The web host as one JavaScript file (out/web/cli.mjs), so a start loads one module instead of
// compiling a few hundred TypeScript files on the fly and resolving hundreds of dependency files
// (2.4 s before, 0.3 s now, to the host listening on a 2-core machine).
// Made after `npm install` and again whenever a source under electron/ is newer than it.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['electron', 'package.json'];
/** Files the bundle reads beside itself at run time (they are run as scripts of their own). */
const BESIDE = ['electron/emulator/media/espeak-wasm.mjs'];

export function webBundlePath(root) {
  return join(root, 'out', 'web', 'cli.mjs');
}

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function webBundleIsStale(root) {
  const bundle = webBundlePath(root);
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return SOURCES.some((source) => existsSync(join(root, source)) && newestMtime(join(root, source)) > built);
}

export async function buildWebBundle(root) {
  const { build } = await import('esbuild');
  const outfile = webBundlePath(root);
  mkdirSync(join(root, 'out', 'web'), { recursive: true });
  await build({
    entryPoints: [join(root, 'electron', 'web', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies are bundled too: resolving and loading hundreds of small files from node_modules
    // was most of a start (0.7 s against 0.27 s). Left out: what loads only when used (the S3 SDK),
    // the speech engine (its WASM files are found beside its package), and Electron.
    external: ['@aws-sdk/*', 'espeak-ng', 'electron', 'fsevents'],
    // Some bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire as studioRequire } from 'node:module'; const require = studioRequire(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const file of BESIDE) copyFileSync(join(root, file), join(root, 'out', 'web', file.split('/').at(-1)));
  return outfile;
}
