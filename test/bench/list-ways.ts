// The frame the list benches share (campaigns-list and batches-list .measure.ts): a folder made once, then
// each way of listing it run in a process of its own (so one way's memory does not hide the other's),
// timed twice with the host's memory around it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ListWay = 'summaries' | 'whole';

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

/** Times `call` twice in this process: its time, the first summary's rows, and RSS and heap around it. */
export async function timeListing(
  way: ListWay,
  call: () => Promise<{ total?: number; counts?: unknown }[]>,
): Promise<void> {
  global.gc?.();
  const before = process.memoryUsage();
  for (const n of [1, 2]) {
    const from = process.hrtime.bigint();
    const [summary] = await call();
    const ms = Number(process.hrtime.bigint() - from) / 1e6;
    global.gc?.();
    const now = process.memoryUsage();
    console.log(
      `${way} call ${n}: ${ms.toFixed(0)} ms, ${summary?.total} rows (${JSON.stringify(summary?.counts)}); ` +
        `RSS ${mb(before.rss)} → ${mb(now.rss)} MB (peak ${mb(process.resourceUsage().maxRSS * 1024)} MB), ` +
        `heap ${mb(before.heapUsed)} → ${mb(now.heapUsed)} MB`,
    );
  }
}

/**
 * The measure's command line: `list DIR WAY` lists in this process; otherwise `[rows]` (default 100,000)
 * makes a folder of one run of that many rows and lists it each way, whole first, in child processes.
 */
export async function listWays(options: {
  /** "campaign", "batch": how the made run is named in the output. */
  run: string;
  make: (dataDir: string, rows: number) => Promise<void>;
  list: (dataDir: string, way: ListWay) => Promise<void>;
}): Promise<void> {
  const [mode, dir, arg] = process.argv.slice(2);
  if (mode === 'list') return options.list(dir as string, arg as ListWay);
  const rows = Number(mode ?? 100_000);
  const work = mkdtempSync(join(tmpdir(), `studio-${options.run}-list-`));
  try {
    const from = process.hrtime.bigint();
    await options.make(join(work, 'data'), rows);
    const seconds = (Number(process.hrtime.bigint() - from) / 1e9).toFixed(1);
    console.log(`made: one ${options.run} of ${rows} rows in ${seconds} s`);
    for (const way of ['whole', 'summaries'])
      process.stdout.write(
        execFileSync(
          process.execPath,
          ['--expose-gc', '--import', 'tsx', process.argv[1] as string, 'list', join(work, 'data'), way],
          { encoding: 'utf8' },
        ),
      );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
