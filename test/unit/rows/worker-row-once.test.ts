// A worker makes a row once at a time. BullMQ gives a row whose lock was not renewed in time (a busy
// machine, a short --lock-seconds) back to the queue while its worker still makes it, and the same worker
// may be handed it again: the second attempt found the first's create intent with no answer yet and
// failed the row as of unknown outcome (worker-killed-links, under the whole suite's load). The second
// delivery now waits for the first, which reports the row once. Real Redis; the delivery is the
// queue's call into the worker, made twice while the first is under way.
import { describe, expect, it } from 'vitest';
import type { RowBase, RunBase } from '../../../electron/services/rows/engine/row-kind';
import type { RowTake } from '../../../electron/services/rows/queue/row-takes';
import { RowWorker, type RowMaker } from '../../../electron/services/rows/queue/row-worker';
import { RunShelf, type RowReport } from '../../../electron/services/rows/queue/run-shelf';
import { holdRow } from './held-row';
import { redisClients, redisPerFile } from '../../redis-per-file';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

describe('a row delivered again to the worker that is making it', () => {
  it('is made once: the second delivery waits for the first', async () => {
    const space = prefix();
    const shelf = new RunShelf(client(), space);
    await shelf.putRun('campaign', { id: 'c1', createdAt: 0, state: 'running', rows: [] } as RunBase<RowBase>);
    let started!: () => void;
    const making = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const made: number[] = [];
    const maker: RowMaker = {
      kind: 'campaign',
      files: false,
      make: async (_run, row) => {
        made.push(row.row);
        started();
        await finished;
        return { outcome: 'ended', record: { ...row, state: 'done' } };
      },
    };
    await holdRow(client(), space, 'campaign', 'c1', 0);
    const worker = new RowWorker({ url: redis().url, prefix: space, makers: [maker] });
    const deliver = (take: RowTake) =>
      (worker as unknown as { takeOnce(t: RowTake): Promise<RowReport> }).takeOnce(take);
    try {
      const task = { kind: 'campaign', runId: 'c1', row: { row: 0, state: 'voiceover', take: 0, problems: [] } };
      const first = deliver(task);
      await making;
      const again = deliver(task);
      finish();
      const reports = await Promise.all([first, again]);
      expect(made).toEqual([0]);
      // Both deliveries answer the one report of the row, made once.
      expect(reports.map((report) => report.record.state)).toEqual(['done', 'done']);
      // Once ended, a later delivery of the row is a new attempt (a row made again is handed over anew).
      await deliver(task);
      expect(made).toEqual([0, 0]);
    } finally {
      await worker.stopWithin(0);
    }
  });
});
