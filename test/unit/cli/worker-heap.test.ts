// A worker's heap stays near what it holds (issue 67: a worker's RSS swung by 200 MB with where V8's
// collector stood, and crept up with the pages its rows left half empty). The flags are set in a real
// process whose old space is then measured against what stays live: a machine's speed changes when V8
// collects, not how far past the live set it may grow, nor which pages a full collection compacts.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';

const run = promisify(execFile);
const child = join(__dirname, 'worker-heap-child.ts');

interface OldSpace {
  largest: number;
  live: number;
  /** After most of what was kept has gone and a full collection: the old space's size, and what it holds. */
  after: { size: number; used: number };
}

async function oldSpace(mode: 'near' | 'default'): Promise<OldSpace> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', child, mode], {
    cwd: join(__dirname, '../../..'),
  });
  return JSON.parse(stdout) as OldSpace;
}

afterEach(() => {
  vi.doUnmock('node:v8');
  vi.doUnmock('../../../electron/cli/worker-heap');
  vi.resetModules();
});

describe("a worker's heap", () => {
  it('grows at most half again past what stays live, where V8 alone let it grow to several times that', async () => {
    const near = await oldSpace('near');
    // What the child holds: about 100 MB (a small live set would be dwarfed by V8's least growing step).
    expect(near.live).toBeGreaterThan(50 * 2 ** 20);
    // 1.3 times the live set, and the young objects promoted between two collections. Without the
    // factor the same child's old space reaches about four times its live set on this machine.
    expect(near.largest / near.live).toBeLessThan(1.6);
    // Its full collections compact the pages left mostly empty: without that, V8 kept the old space at
    // about ten times what stayed (110 MB for 11 MB live), the growing factor alone as well.
    expect(near.after.used).toBeGreaterThan(4 * 2 ** 20);
    expect(near.after.size / near.after.used).toBeLessThan(1.5);
  }, 60_000);

  it("leaves a flag its operator gave node alone, and sets the worker's otherwise", async () => {
    const setFlagsFromString = vi.fn();
    vi.doMock('node:v8', () => ({ setFlagsFromString }));
    const { keepHeapNearLive, WORKER_HEAP_GROWING_PERCENT } = await import('../../../electron/cli/worker-heap');
    const factor = `--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`;
    const compact = '--compact-on-every-full-gc';
    expect(keepHeapNearLive(['--heap-growing-percent=80', '--no-compact-on-every-full-gc'])).toEqual([]);
    expect(keepHeapNearLive(['--heap-growing-percent', '80', compact])).toEqual([]);
    // V8 reads `_` as `-`, and takes `--noflag` for `--no-flag`: the operator's spelling counts.
    expect(keepHeapNearLive(['--heap_growing_percent=80', '--no_compact_on_every_full_gc'])).toEqual([]);
    expect(keepHeapNearLive(['--heap_growing_percent', '80', '--nocompact-on-every-full-gc'])).toEqual([]);
    expect(setFlagsFromString).not.toHaveBeenCalled();
    // Another flag that only begins alike is not the operator's choice of this one.
    expect(keepHeapNearLive(['--heap-growing-percentage=80'])).toEqual([factor, compact]);
    expect(keepHeapNearLive(['--heap-growing-percent=80'])).toEqual([compact]);
    expect(keepHeapNearLive(['--no-compact-on-every-full-gc'])).toEqual([factor]);
    expect(keepHeapNearLive(['--inspect'])).toEqual([factor, compact]);
    expect(setFlagsFromString.mock.calls.map(([flag]) => flag as string)).toEqual([
      factor,
      compact,
      compact,
      factor,
      factor,
      compact,
    ]);
  });

  it('is set by `studio worker` before anything else, even a command line it then refuses', async () => {
    const keepHeapNearLive = vi.fn(() => ['--heap-growing-percent=30']);
    vi.doMock('../../../electron/cli/worker-heap', () => ({ keepHeapNearLive }));
    const { collectingIo } = await import('./cli-io');
    const { runCli } = await import('../../../electron/cli/index');
    const { EXIT } = await import('../../../electron/cli/command');
    const dir = mkdtempSync(join(tmpdir(), 'studio-worker-heap-'));
    const worker = collectingIo(dir);
    expect(await runCli(['worker'], worker.io)).toBe(EXIT.usage);
    expect(worker.err.join('\n')).toContain('--queue redis://HOST:PORT');
    expect(keepHeapNearLive).toHaveBeenCalledTimes(1);
    // Another command leaves V8 as it is.
    expect(await runCli(['campaign', 'status'], collectingIo(dir).io)).toBe(EXIT.usage);
    expect(keepHeapNearLive).toHaveBeenCalledTimes(1);
  });
});
