// Runs after `npm install`. Electron's own install script is switched off in package.json
// (allowScripts) because its download from GitHub fails on machines that cannot reach it, and npm then
// rolls back the whole install. Here the same download is tried, and a failure is one line, not an
// error: `npm start` then serves the studio in the browser. The page is built now, not at first start.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';

const root = join(import.meta.dirname, '..', '..');
const electronInstaller = join(root, 'node_modules', 'electron', 'install.js');

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('Electron: download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD); `npm start` serves the studio in your browser.');
} else if (!electronBinary(root) && existsSync(electronInstaller)) {
  const download = spawnSync(process.execPath, [electronInstaller], { cwd: join(root, 'node_modules', 'electron'), encoding: 'utf8', timeout: 10 * 60_000 });
  if (download.status === 0 && electronBinary(root)) console.log('Electron: desktop app installed; `npm start` opens it.');
  else {
    const reason = (download.stderr || download.error?.message || '').split('\n').find((line) => /Error|ENOTFOUND|ECONN|getaddrinfo|timed out/i.test(line))?.trim();
    console.log(`Electron: its binary could not be downloaded${reason ? ` (${reason.slice(0, 120)})` : ''}; \`npm start\` serves the studio in your browser instead.`);
  }
}

// The page, ready before the first start (the web host rebuilds it only when its sources change).
const build = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'electron', 'web', 'vite.renderer.config.ts'), '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) console.log('The page could not be built now; `npm start` builds it on first start.');
