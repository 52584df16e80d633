// `npm run test:busy`: the whole of `npm test` beside two processes that keep a core each busy, as a
// laptop with a browser and an editor open does. A suite whose verdict changes here depends on the
// machine's speed, not on the code: run this before calling a change to the tests green.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const BURNERS = 2;

// Plain busy loops at the ordinary priority, each in its own process, ended with the run.
const burners = Array.from({ length: BURNERS }, () =>
  spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' }),
);
const stopBurners = () => {
  for (const burner of burners) burner.kill('SIGKILL');
};
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

console.log(`Running npm test beside ${BURNERS} busy processes (pids ${burners.map((b) => b.pid).join(', ')}).`);
const started = Date.now();
const code = await new Promise((resolve) => {
  const run = spawn(process.execPath, [join(root, 'test', 'run-all.mjs'), ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  run.on('error', () => resolve(1));
  run.on('close', (status) => resolve(status ?? 1));
});
console.log(
  `npm test beside ${BURNERS} busy processes: exit ${code} after ${Math.round((Date.now() - started) / 1000)} s.`,
);
process.exit(code);
