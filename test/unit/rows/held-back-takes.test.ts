// Issue 67: pause and cancel of a queued run use the queue's own means. The run's takes that no worker
// has begun leave the queue (BullMQ's remove) at the pause, and their rows wait with those not started,
// rather than each being taken by a worker only to be answered "not made"; a resume hands them again,
// and a cancel cancels them. Real Redis, the real row engine, queued runs and run records.
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
let made = 0;

function studio(name: string) {
  made += 1;
  const prefix = `held-back-${process.pid}-${made}`;
  const dataDir = mkdtempSync(join(tmpdir(), `studio-held-back-${name}-`));
  const rows: RowBase[] = [0, 1, 2].map((row) => ({ row, state: 'pending', take: 0, problems: [] }));
  const run: QueuedOnlyRun = { id: `${name}-1`, createdAt: 1, state: 'running', rows, queue: redis().url };
  const queues = new QueuedRuns({ prefix });
  const engine = new RowEngine({
    jobs: { list: () => [], submit: () => Promise.reject(new Error('nothing is sent here')) },
    remote: queues,
  });
  engine.register(queuedOnlyKind(dataDir, KIND));
  const takes = new RowTakes({ url: redis().url, prefix });
  const at = (row: number) => ({ kind: KIND, runId: run.id, row, take: 0 });
  const states = async () => (await engine.require(KIND, run.id)).rows.map((r) => r.state);
  const looks = () => Promise.all(rows.map((r) => takes.look(at(r.row))));
  const close = async () => {
    engine.stop();
    await queues.close();
    await takes.closeWithin(0);
  };
  return { run, engine, takes, states, looks, close };
}

describe("a queued run's takes no worker has begun", () => {
  it('leave the queue at a pause, their rows waiting; a resume hands them again and a worker makes each once', async () => {
    const s = studio('paused');
    const given: number[] = [];
    try {
      await s.engine.create(KIND, s.run);
      void s.engine.run(KIND, s.run.id);
      await until('every take at the queue', async () => (await s.looks()).every((look) => look === 'at-queue'));
      await s.engine.pause(KIND, s.run.id);
      await until('every row back with those not started', async () =>
        (await s.states()).every((state) => state === 'pending'),
      );
      expect(await s.looks()).toEqual([null, null, null]);

      await s.engine.resume(KIND, s.run.id);
      s.takes.start(async (take) => {
        given.push(take.row.row);
        return { row: take.row.row, take: 0, outcome: 'ended', record: { ...take.row, state: 'done' }, worker: 'w1' };
      });
      await until('every row made', async () => (await s.states()).every((state) => state === 'done'));
      expect(given.sort()).toEqual([0, 1, 2]);
    } finally {
      await s.close();
    }
  });

  it('leave the queue at a cancel, their rows cancelled', async () => {
    const s = studio('cancelled');
    try {
      await s.engine.create(KIND, s.run);
      void s.engine.run(KIND, s.run.id);
      await until('every take at the queue', async () => (await s.looks()).every((look) => look === 'at-queue'));
      await s.engine.cancel(KIND, s.run.id);
      await until('every row cancelled', async () => (await s.states()).every((state) => state === 'cancelled'));
      expect(await s.looks()).toEqual([null, null, null]);
    } finally {
      await s.close();
    }
  });
});
