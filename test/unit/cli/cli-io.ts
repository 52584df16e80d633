import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { CliIo } from '../../../electron/cli/command';

/** A command line's output collected, run in `dir` with `<dir>/data` as the data folder. */
export function collectingIo(dir: string): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t) => out.push(t), err: (t) => err.push(t), env: { STUDIO_DATA_DIR: join(dir, 'data') }, cwd: dir }, out, err };
}

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/**
 * Runs the CLI as a process of its own and kills it with SIGKILL (nothing flushed, as a crash would)
 * as soon as `ready()` holds, checked every 20 ms. Rejects if the command ends on its own first: then
 * the test would not have tested a kill at all.
 */
export async function killCliWhen(args: string[], ready: () => boolean, what: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'electron/cli/index.ts'), ...args], { cwd: repoRoot, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (!ready()) return;
      clearInterval(timer);
      child.kill('SIGKILL');
      resolve();
    }, 20);
    child.once('exit', () => {
      clearInterval(timer);
      reject(new Error(`${what} ended before it could be killed`));
    });
  });
  await exited;
}
