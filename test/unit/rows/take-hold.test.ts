// Issue 67: an account's "too frequent" (1005) holds the queue's takes by BullMQ's own rate limit, so no
// worker starts a row while the account refuses requests; what a worker makes already goes on at its
// shared turns. BullMQ applies a limit set by hand only to workers that have a limiter, which the
// studio's workers have with no cap of their own. Real Redis and BullMQ.
import { describe, expect, it } from 'vitest';
import { RowTakes, type RowTake } from '../../../electron/services/rows/queue/row-takes';
import { redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';

const redis = redisPerFile();
/** Long enough for a free worker to take a waiting job many times over; the verdict never waits on it elsewhere. */
const A_WHILE_MS = 1_500;

describe("a hold on the queue's takes", () => {
  it('starts no take while it lasts, and the take starts once it is lifted', async () => {
    const prefix = `take-hold-${process.pid}`;
    const studio = new RowTakes({ url: redis().url, prefix });
    const workers = [1, 2].map((n) => new RowTakes({ url: redis().url, prefix, workerName: `w-hold-${n}` }));
    const made: number[] = [];
    const make = (by: number) => (take: RowTake) => {
      made.push(by);
      return Promise.resolve({
        row: take.row.row,
        take: 0,
        outcome: 'ended' as const,
        record: take.row,
        worker: `${by}`,
      });
    };
    try {
      await studio.hold(600_000);
      await studio.hand({ kind: 'lines', runId: 'r1', row: { row: 0, state: 'queued', take: 0, problems: [] } });
      workers[0].start(make(1));
      await new Promise((resolve) => setTimeout(resolve, A_WHILE_MS));
      expect(made).toEqual([]);
      expect(await studio.look({ kind: 'lines', runId: 'r1', row: 0, take: 0 })).toBe('at-queue');
      // Lifted: a worker started now takes it at once (the first sleeps out BullMQ's own delay, up to 30 s).
      await workers[0].closeWithin(0);
      await studio.queue.removeRateLimitKey();
      workers[1].start(make(2));
      await until('the take made once the hold is lifted', async () => made.length === 1, 60_000);
      expect(made).toEqual([2]);
    } finally {
      await Promise.all(workers.map((w) => w.closeWithin(0)));
      await studio.closeWithin(0);
    }
  });
});
