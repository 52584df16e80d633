// `npm run web`: the studio in a browser through the web host, started from its bundle (rebuilt first
// when a source changed: a tenth of a second). Arguments go to the web host (--port, --open, --data-dir).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWebBundle, webBundleIsStale, webBundlePath } from './web-bundle.mjs';

const root = join(import.meta.dirname, '..', '..');
if (webBundleIsStale(root)) await buildWebBundle(root);
const { main } = await import(pathToFileURL(webBundlePath(root)).href);
main().catch((error) => {
  console.error(`The web host could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
