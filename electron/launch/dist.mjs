// `npm run dist [-- --linux|--mac|--win]`: builds the app, then packages it with electron-builder.
// Packaging needs Electron's release archive, which electron-builder downloads from GitHub; where that
// cannot be reached this says so in one line instead of a stack of download errors.
import { spawnSync } from 'node:child_process';
import { request } from 'node:https';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

const reachable = await new Promise((resolve) => {
  const probe = request('https://github.com/electron/electron/releases', { method: 'HEAD', timeout: 8000 }, (res) => {
    res.resume();
    resolve(true);
  });
  probe.on('timeout', () => probe.destroy(new Error('timed out')));
  probe.on('error', () => resolve(false));
  probe.end();
});
if (!reachable && !process.env.ELECTRON_CACHE && !process.env.electron_config_cache) {
  console.log(
    "npm run dist: cannot package here: Electron's release archive is downloaded from GitHub, which this machine cannot reach (set ELECTRON_CACHE to a folder holding it to package offline).",
  );
  process.exit(1);
}
for (const [command, args] of [
  [bin('electron-vite'), ['build']],
  [bin('electron-builder'), ['--config', 'electron-builder.config.cjs', ...process.argv.slice(2)]],
]) {
  const step = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (step.status !== 0) process.exit(step.status ?? 1);
}
