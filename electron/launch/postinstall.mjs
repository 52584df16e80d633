// Runs after `npm install`. Electron is an optional dependency whose own download script is switched
// off (package.json allowScripts, npm 11+), because its download from GitHub fails on machines that
// cannot reach it. Here the same download is tried and a failure is one line, not an error: `npm start`
// then serves the studio in the browser. npm before 11 runs Electron's script itself and, when it fails,
// leaves the package out; its declarations are put back (electron-package.cjs). The page is built now.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';
import electronPackage from './electron-package.cjs';

const root = join(import.meta.dirname, '..', '..');
const electronDir = join(root, 'node_modules', 'electron');
const browserInstead = '`npm start` serves the studio in your browser instead.';

function tryDownload() {
  if (!existsSync(join(electronDir, 'install.js'))) return 'npm left the electron package out';
  const download = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    cwd: electronDir,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (download.status === 0 && electronBinary(root)) return null;
  return (
    (download.stderr || download.error?.message || '')
      .split('\n')
      .find((line) => /Error|ENOTFOUND|ECONN|getaddrinfo|timed out/i.test(line))
      ?.trim()
      .slice(0, 120) ?? ''
  );
}

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log(`Electron: download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD); ${browserInstead}`);
} else if (electronBinary(root)) {
  console.log('Electron: desktop app installed; `npm start` opens it.');
} else {
  const reason = tryDownload();
  if (reason === null) console.log('Electron: desktop app installed; `npm start` opens it.');
  else console.log(`Electron: its binary could not be downloaded${reason ? ` (${reason})` : ''}; ${browserInstead}`);
}
if (!electronPackage.restoreElectronPackage(root)) {
  console.log(
    "Electron's type declarations could not be fetched from the npm registry; `npm test` type check needs them (run `npm install` again).",
  );
}

// The page, ready before the first start (the web host rebuilds it only when its sources change).
const build = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--config',
    join(root, 'electron', 'web', 'vite.renderer.config.ts'),
    '--logLevel',
    'warn',
  ],
  { cwd: root, stdio: 'inherit' },
);
if (build.status !== 0) console.log('The page could not be built now; `npm start` builds it on first start.');

// The web host's and the command line's bundles too, so the first `npm start` in a browser and the first
// `studio worker` do not wait for them.
const { buildBundle } = await import('./bundles.mjs');
for (const [name, what, when] of [
  ['web', 'The web host', '`npm start`'],
  ['cli', 'The command line', '`studio worker`'],
]) {
  try {
    await buildBundle(root, name);
  } catch (error) {
    console.log(`${what} could not be bundled now (${error.message}); ${when} bundles it on first start.`);
  }
}
