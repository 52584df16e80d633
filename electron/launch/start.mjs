// `npm start`: the desktop app when Electron's binary is installed; otherwise one line saying so,
// then the same studio served by the web host on 127.0.0.1 (its address is printed next).
// Arguments after `--` go to the web host (e.g. `npm start -- --port 8080 --open`).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';

const root = join(import.meta.dirname, '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

const electron = electronBinary(root);
if (electron) {
  const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  run(electron, [root]);
} else {
  console.log(
    "Electron's binary is not installed here (ELECTRON_SKIP_BINARY_DOWNLOAD, or no access to GitHub), so the studio runs in your browser through the web host instead.",
  );
  run(process.execPath, [join(root, 'electron', 'launch', 'web.mjs'), ...process.argv.slice(2)]);
}
