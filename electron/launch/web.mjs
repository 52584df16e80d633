// `npm run web`: the studio in a browser through the web host, started from its bundle (rebuilt first
// when a source changed: a tenth of a second). Arguments go to the web host (--port, --open, --data-dir).
import { join } from 'node:path';
import { buildBundle, bundleIsStale, loadBundle } from './bundles.mjs';

/** Long enough for the first page's calls to have run, so their code is in the cache too. */
const SAVE_CODE_CACHE_AFTER_MS = 5_000;

const root = join(import.meta.dirname, '..', '..');
if (bundleIsStale(root, 'web')) await buildBundle(root, 'web');
const { exports: bundle, codeCache, saveCodeCache } = loadBundle(root, 'web');
if (process.env.STUDIO_STARTUP_TRACE) console.error(`startup: bundle compiled (code cache ${codeCache})`);
// Kept at the first stop, or a few seconds in for a host that is never stopped cleanly.
process.once('exit', saveCodeCache);
bundle.main().then(
  () => setTimeout(saveCodeCache, SAVE_CODE_CACHE_AFTER_MS).unref(),
  (error) => {
    console.error(`The web host could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
