// The campaigns bench's SIGKILL phase: a host in a process of its own is killed with SIGKILL part way
// (the CLI tests' hook: once the ledger has written down its Nth create, before that create leaves), then
// a second host on the same data folder runs the campaign to its end. Rows lost and rows whose step the
// sandbox made twice are counted from the sandbox's own records.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createdPerRow, stopSandbox } from './campaign-sandbox';
import { startSandbox } from './jobs.bench';

interface ChildRun {
  seconds: number;
  requests: number;
  polls: number;
  rateLimited: number;
  rows: { state: string; problems: number; fileName: string }[];
}

export interface KilledOutcome {
  rows: number;
  /** The killed host's creates written down before the kill. */
  killAfter: number;
  seconds: number;
  requests: number;
  done: number;
  failed: number;
  lost: number;
  twice: number;
}

const root = join(import.meta.dirname, '..', '..');

function child(args: object, kill: number | null): { run: ChildRun | null; signal: string | null; error: string } {
  const hook = join(root, 'test/unit/cli/kill-after-submits-hook.ts');
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      ...(kill === null ? [] : ['--import', hook]),
      join(root, 'test/bench/campaign-kill-child.ts'),
      JSON.stringify(args),
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...(kill === null ? {} : { STUDIO_TEST_KILL_AFTER_SUBMITS: String(kill) }) },
      maxBuffer: 64 * 2 ** 20,
    },
  );
  const last = result.stdout.trim().split('\n').pop() ?? '';
  return {
    run: last.startsWith('{') ? (JSON.parse(last) as ChildRun) : null,
    signal: result.signal,
    error: result.stderr.trim().split('\n').slice(-5).join('\n'),
  };
}

export async function killedAndResumed(
  options: { jobSeconds: number; failRate: number; rateLimit: number; speechFixture: string },
  rows: number,
  killAfter: number,
): Promise<KilledOutcome> {
  const work = mkdtempSync(join(tmpdir(), 'studio-bench-campaigns-killed-'));
  const sandbox = await startSandbox(join(work, 'sandbox'), options);
  try {
    const args = {
      url: sandbox.url,
      apiKey: sandbox.apiKey,
      rows,
      dataDir: join(work, 'data'),
      outDir: join(work, 'out'),
    };
    const first = child(args, killAfter);
    if (first.signal !== 'SIGKILL')
      throw new Error(`the first host was not killed (${first.signal ?? 'it ended'}): ${first.error}`);
    const second = child(args, null);
    if (!second.run) throw new Error(`the second host printed nothing: ${second.error}`);
    const end = second.run;
    const done = end.rows.filter((r) => r.state === 'done' && existsSync(join(args.outDir, r.fileName))).length;
    const failed = end.rows.filter((r) => r.state === 'failed' && r.problems > 0).length;
    await stopSandbox(sandbox);
    const perRow = createdPerRow(sandbox);
    const twice = new Set([...perRow].filter(([, n]) => n > 1).map(([key]) => key.split(':')[0])).size;
    return {
      rows,
      killAfter,
      seconds: end.seconds,
      requests: end.requests,
      done,
      failed,
      lost: rows - done - failed,
      twice,
    };
  } finally {
    await stopSandbox(sandbox);
    rmSync(work, { recursive: true, force: true });
  }
}
