// Issue 67: a worker's report leaves the queue only once the studio's record says its row was taken in. A
// studio quitting stops its row engine first (its rows' changes are no longer written) and lets its
// queues go after; a report it was taking in meanwhile (its jobs being recorded) was taken off Redis
// while the record still said the row was on the queue. Started again, the studio found nothing to take
// in for that row, and `--retry-failed` of it paid for its video a second time (queue-reports-again saw 13
// videos for 12 rows). Real Redis, the real row engine, queued runs and run records; a row kind of its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge/jobs';
import { QueuedRuns } from '../../../electron/services/rows/queue/queued-runs';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import type { RowBase } from '../../../electron/services/rows/engine/row-kind';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { RowTakes } from '../../../electron/services/rows/queue/row-takes';
import { reportedTake } from './reported-take';
import { redisPerFile } from '../../redis-per-file';
import { queuedOnlyKind, queuedOnlyRuns, type QueuedOnlyRun } from './queued-only-kind';

const redis = redisPerFile();
const KIND = 'lines';
let made = 0;

type Lines = QueuedOnlyRun;
const runsOf = (dataDir: string) => queuedOnlyRuns(dataDir, KIND);
const linesKind = (dataDir: string) => queuedOnlyKind(dataDir, KIND);

/** A studio on the data folder: its engine hands the kind's queued rows to Redis; `receive` records a report's jobs. */
function studio(dataDir: string, prefix: string, receive: (jobs: readonly JobView[]) => Promise<void>) {
  const queues = new QueuedRuns({ prefix });
  const jobs = {
    list: () => [],
    submit: () => Promise.reject(new Error('a queued row sends nothing from its studio')),
    receive,
  };
  const engine = new RowEngine({ jobs, remote: queues });
  engine.register(linesKind(dataDir));
  return { queues, engine };
}

/** A run of one row, sent to the queue before the studio quit; its worker made the row and left its report. */
async function reportWaiting(prefix: string, client: Redis) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-report-taken-in-'));
  const row: RowBase = { row: 0, state: 'queued', take: 0, problems: [] };
  const run: Lines = { id: `lines-${(made += 1)}`, createdAt: 1, state: 'running', rows: [row], queue: redis().url };
  await new RunShelf(client, prefix).putRun(KIND, run);
  const job = { id: 'w-job-1', remoteId: 'r-1' } as JobView;
  await reportedTake(
    redis().url,
    prefix,
    { kind: KIND, runId: run.id, row },
    {
      row: 0,
      take: 0,
      outcome: 'ended',
      record: { ...row, state: 'done' },
      jobs: [job],
      worker: 'w1',
    },
  );
  return { dataDir, run };
}

/** A `receive` that holds the report's take-in until `let go` (the studio is stopped meanwhile). */
function heldReceive() {
  let started!: () => void;
  let letGo!: () => void;
  const receiving = new Promise<void>((resolve) => (started = resolve));
  const release = new Promise<void>((resolve) => (letGo = resolve));
  return { receiving, letGo, receive: async () => (started(), release) };
}

describe("a worker's report taken in as the studio quits", () => {
  it.each([
    ['engine stopped, then its queues closed, as the host quits', true],
    ['engine stopped, its queues still open', false],
  ])('stays in Redis until the row is taken in on disk (%s), and the next start takes it in', async (_, close) => {
    const prefix = `taken-in-${process.pid}-${(made += 1)}`;
    const client = new Redis(redis().url);
    const takes = new RowTakes({ url: redis().url, prefix });
    try {
      const { dataDir, run } = await reportWaiting(prefix, client);
      const report = () => takes.report({ kind: KIND, runId: run.id, row: 0, take: 0 });
      const held = heldReceive();
      const quitting = studio(dataDir, prefix, held.receive);
      await quitting.engine.create(KIND, run);
      await quitting.engine.flush();
      void quitting.engine.run(KIND, run.id);
      // The report is being taken in (its jobs recorded) when the studio quits.
      await held.receiving;
      quitting.engine.stop();
      const closed = close ? quitting.queues.close() : null;
      held.letGo();
      await quitting.engine.idle();
      await closed;
      if (!close) await quitting.queues.close();

      // The record on disk still says the row is on the queue: its report is still there to take in.
      expect((await runsOf(dataDir).get(run.id))?.rows[0].state).toBe('queued');
      expect(await report()).not.toBeNull();

      // Started again, the studio takes the row in from that report (nothing handed to the queue again).
      const received: JobView[][] = [];
      const again = studio(dataDir, prefix, async (jobs) => void received.push([...jobs]));
      try {
        await again.engine.run(KIND, run.id);
        expect((await again.engine.require(KIND, run.id)).rows[0].state).toBe('done');
        expect(received.flat().map((j) => j.remoteId)).toEqual(['r-1']);
        expect(await report()).toBeNull();
      } finally {
        again.engine.stop();
        await again.queues.close();
      }
    } finally {
      await takes.closeWithin(0);
      await client.quit();
    }
  });
});
