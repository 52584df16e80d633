import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { CliIo } from '../../../electron/cli/command';
import type { BuiltInSandboxOptions } from '../../../electron/emulator/built-in';
import { runCli } from '../../../electron/cli/index';

/** A command line's output collected, run in `dir` with `<dir>/data` as the data folder. */
export function collectingIo(dir: string): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (t) => out.push(t), err: (t) => err.push(t), env: { STUDIO_DATA_DIR: join(dir, 'data') }, cwd: dir },
    out,
    err,
  };
}

/**
 * One command run in `dir` with no environment of its own: its exit code and what it printed. `sandbox`:
 * settings of the built-in sandbox the command starts (its jobs' length), as CliIo takes them.
 */
export async function runIn(
  dir: string,
  args: string[],
  sandbox?: BuiltInSandboxOptions,
): Promise<{ code: number; out: string[]; err: string[]; said(): string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd: dir, sandbox };
  const code = await runCli(args, io);
  return { code, out, err, said: () => err.join('\n') };
}

/** A small orange square at `path`: the logo the test sheets link to. */
export function writeLogo(path: string): void {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=orange:s=64x64', '-frames:v', '1', path]);
}

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/**
 * Runs the CLI as a process of its own that kills itself with SIGKILL (nothing flushed, as a crash would)
 * once its ledger has written down the create of its `submits`th job, before sending it (see
 * kill-after-submits-hook.ts). Rejects if the command ends any other way: then the test would not have
 * tested a kill at all.
 */
export async function killCliAfterSubmits(args: string[], submits: number, what: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      join(repoRoot, 'test/unit/cli/kill-after-submits-hook.ts'),
      join(repoRoot, 'electron/cli/index.ts'),
      ...args,
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, STUDIO_TEST_KILL_AFTER_SUBMITS: String(submits) },
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL'
        ? resolve()
        : reject(new Error(`${what} ended with ${signal ?? `exit ${code}`} before it could be killed: ${stderr}`)),
    );
  });
}
