// Issue 67: a take that failed at the queue (its workers were cut off while making it, or could not
// read its run for want of Redis) is made again: the studio that follows the run hears of the failure
// on the queue's events and puts the take back to waiting (BullMQ's retry), where a worker makes it,
// following the jobs made before through their intents. Left failed, its row waited for ever as "on the
// queue". Real Redis, the real row engine, queued runs and run records; a row kind of its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueuedRuns } from '../../../electron/services/rows/queue/queued-runs';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import type { RowBase } from '../../../electron/services/rows/engine/row-kind';
import { RowTakes } from '../../../electron/services/rows/queue/row-takes';
import { redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';
import { queuedOnlyKind, type QueuedOnlyRun } from './queued-only-kind';

const redis = redisPerFile();
const KIND = 'lines';

describe('a take that failed at the queue', () => {
  it('is put back to waiting by the studio following its run, and made', async () => {
    const prefix = `failed-take-${process.pid}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-failed-take-'));
    const row: RowBase = { row: 0, state: 'pending', take: 0, problems: [] };
    const run: QueuedOnlyRun = { id: 'lines-1', createdAt: 1, state: 'running', rows: [row], queue: redis().url };
    const queues = new QueuedRuns({ prefix });
    const engine = new RowEngine({
      jobs: { list: () => [], submit: () => Promise.reject(new Error('nothing is sent here')) },
      remote: queues,
    });
    engine.register(queuedOnlyKind(dataDir, KIND));
    // A worker whose first attempt fails (as one that could not read the run's record), and whose second makes the row.
    let attempts = 0;
    const worker = new RowTakes({ url: redis().url, prefix });
    worker.start(async (take) => {
      attempts += 1;
      if (attempts === 1) throw new Error('the run could not be read');
      return {
        row: take.row.row,
        take: take.row.take,
        outcome: 'ended',
        record: { ...take.row, state: 'done' },
        worker: 'w1',
      };
    });
    try {
      await engine.create(KIND, run);
      void engine.run(KIND, run.id);
      await until(
        'the row made on its second attempt',
        async () => (await engine.require(KIND, run.id)).rows[0].state === 'done',
        60_000,
      );
      expect(attempts).toBe(2);
      // Taken in, its job left the queue.
      expect(await worker.look({ kind: KIND, runId: run.id, row: 0, take: 0 })).toBeNull();
    } finally {
      engine.stop();
      await queues.close();
      await worker.closeWithin(0);
    }
  });
});
