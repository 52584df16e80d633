// `npm run web` as a process of its own for the queue tests (web-host-child.ts: the page already built).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { until } from '../../wait';
import type { CliProcess } from './queue-processes';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** The web host on a data folder, with `env` added to this process's; pushed to `started` for the test's clean-up. */
export function webHost(dataDir: string, env: Record<string, string>, started: CliProcess[]): CliProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'test/unit/cli/web-host-child.ts'), '--data-dir', dataDir],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const host = { child, said: () => stderr, printed: () => stdout, exited };
  started.push(host);
  return host;
}

/** Settles once the process printed `text` on stdout (the web host's address line); fails if it exits first. */
export const whenPrinted = (p: CliProcess, text: string): Promise<void> =>
  until(`the process to print "${text}"`, () => {
    if (p.child.exitCode !== null) throw new Error(`it exited (${p.child.exitCode}): ${p.said()}`);
    return p.printed().includes(text);
  });
