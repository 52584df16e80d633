// Issue 67, one budget: a worker makes a queued row only on the strength of the hold its studio took on
// the row's whole price, on the queue's Redis; it checks no money of its own. A row whose hold is not
// there (never taken, let go, lapsed with its studio) goes back to the queue unmade, and is made once
// held. Real Redis.
import { Job } from 'bullmq';
import { describe, expect, it, vi } from 'vitest';
import type { RowBase, RunBase } from '../../../electron/services/rows/engine/row-kind';
import { RowTakes, takeJobId } from '../../../electron/services/rows/queue/row-takes';
import { RowWorker, type RowMaker } from '../../../electron/services/rows/queue/row-worker';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { redisClients, redisPerFile } from '../../redis-per-file';
import { holdRow } from './held-row';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);
const HANG_GUARD = { timeout: 20_000, interval: 50 };

describe('a queued row at a worker', () => {
  it('is given back unmade while its studio holds no price for it, and made once held', async () => {
    const space = prefix();
    await new RunShelf(client(), space).putRun('campaign', {
      id: 'c1',
      createdAt: 0,
      state: 'running',
      rows: [],
    } as RunBase<RowBase>);
    const made: number[] = [];
    const maker: RowMaker = {
      kind: 'campaign',
      files: false,
      make: async (_run, row) => (made.push(row.row), { outcome: 'ended', record: { ...row, state: 'done' } }),
    };
    const queue = new RowTakes({ url: redis().url, prefix: space });
    const w = new RowWorker({ url: redis().url, prefix: space, makers: [maker], refusedHoldMs: 60_000 });
    const at = { kind: 'campaign', runId: 'c1', row: 0, take: 0 };
    try {
      await queue.hand({ kind: 'campaign', runId: 'c1', row: { row: 0, state: 'voiceover', take: 0, problems: [] } });
      w.start();
      // Back on the queue, waiting: nothing made, nothing reported.
      await vi.waitFor(
        async () => expect(await queue.queue.getJobCounts('delayed')).toEqual({ delayed: 1 }),
        HANG_GUARD,
      );
      expect(made).toEqual([]);
      expect(await queue.report(at)).toBeNull();
      // Its studio holds it: taken again now rather than after its wait, it is made.
      await holdRow(client(), space, 'campaign', 'c1', 0);
      await (await Job.fromId(queue.queue, takeJobId(at)))?.promote();
      await vi.waitFor(async () => expect((await queue.report(at))?.outcome).toBe('ended'), HANG_GUARD);
      expect(made).toEqual([0]);
    } finally {
      await w.stopWithin(0);
      await queue.closeWithin(0);
    }
  });
});
