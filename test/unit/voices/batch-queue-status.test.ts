// Where a batch's lines are made, as the batch page asks it (batches.queueStatus), against a real Redis
// with a password: the same reading as a campaign's (one queue holds both kinds of run), so a queued
// batch gets the address without the password, BullMQ's counts and the workers connected to it; a batch on
// this computer reads nothing; a Redis that is gone is an answer saying so, not a throw. A queued batch's
// view names its queue and its rows sent to it as queued.
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { JobView } from '../../../electron/common/bridge/jobs';
import { RowTakes } from '../../../electron/services/rows/queue/row-takes';
import { QueuedRuns } from '../../../electron/services/rows/queue/queued-runs';
import { redisTarget } from '../../../electron/services/rows/queue/redis-target';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import type { BatchRecord } from '../../../electron/services/voices/batch-record';
import { batchView } from '../../../electron/services/voices/batch-view';
import { createBatchesDomain } from '../../../electron/services/voices/batches-domain';
import { redisPerFile } from '../../redis-per-file';
import { HANG_GUARD_MS, until } from '../../wait';
import { closedPort } from '../../closed-port';

const PASSWORD = 'batch-queue-secret';
const redis = redisPerFile({ password: PASSWORD });
const PREFIX = 'batch-queue-status';
const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

/** The batches domain over the studio's queues, with the batches the test names (only their queue matters here). */
function domainWith(queues: QueuedRuns, batches: Record<string, string | null>) {
  const runner = {
    get: async (id: string) => (id in batches ? ({ id, queue: batches[id] } as BatchRecord) : null),
  };
  const base = { log: { info: () => undefined }, emit: () => undefined };
  return createBatchesDomain(
    base as never,
    { batches: runner, catalogue: {}, jobs: {}, queues } as never,
    { pathOf: () => null },
    undefined,
    { now: () => 1_000_000, guardMs: HANG_GUARD_MS },
  ).handlers;
}

function studioQueues(): QueuedRuns {
  const queues = new QueuedRuns({ prefix: PREFIX });
  closing.push(() => queues.close());
  return queues;
}

/** Counts every read the studio's queues are asked for, passing each on. */
function counted(queues: QueuedRuns): { queues: QueuedRuns; reads: () => number } {
  let reads = 0;
  const counting = Object.assign(Object.create(queues) as QueuedRuns, {
    workers: (address: string) => (reads++, queues.workers(address)),
    counts: (address: string) => (reads++, queues.counts(address)),
  });
  return { queues: counting, reads: () => reads };
}

describe("a batch's queue as the batch page reads it", () => {
  it('on a queue: its address without the password, the queue’s counts and the workers connected to it', async () => {
    const url = redis().url;
    const queues = studioQueues();
    const address = queues.address(url);
    expect(address).toBe(`redis://127.0.0.1:${redis().port}`);

    // Two lines pushed as a studio pushes a batch's rows; a worker connected under its name makes one.
    const pusher = new RowTakes({ url, prefix: PREFIX });
    closing.push(() => pusher.closeWithin(0));
    for (const row of [0, 1])
      await pusher.hand({ kind: 'batch', runId: 'b-queued', row: { row, state: 'queued', take: 0, problems: [] } });
    let letGo = (): void => undefined;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let taken = 0;
    const worker = new RowTakes({ url, prefix: PREFIX, concurrency: 1, workerName: 'w-1' });
    worker.start(async (take) => {
      taken++;
      await held;
      return { row: take.row.row, take: 0, outcome: 'not-run', record: take.row, worker: 'w-1' };
    });
    closing.push(async () => (letGo(), await worker.closeWithin(0)));
    await until('the worker making a line', async () => taken === 1);
    const client = new Redis(redisTarget(url).options);
    closing.push(() => client.quit());
    const now = Date.now();
    await new RunShelf(client, PREFIX).tell({
      id: 'w-1',
      host: 'voice-1',
      pid: 5,
      startedAt: now,
      at: now,
      running: 1,
      done: 4,
    });

    const status = await domainWith(queues, { 'b-queued': address })['batches.queueStatus']('b-queued');
    expect(status).toMatchObject({
      queue: address,
      checkedAt: 1_000_000,
      problem: null,
      counts: { waiting: 1, active: 1, delayed: 0, failed: 0 },
      workers: [{ name: 'w-1', host: 'voice-1', running: 1, done: 4 }],
    });
    expect(JSON.stringify(status)).not.toContain(PASSWORD);
  });

  it('on this computer: says there is no queue and reads nothing; an unknown batch is not found', async () => {
    const { queues, reads } = counted(studioQueues());
    const h = domainWith(queues, { 'b-here': null });
    expect(await h['batches.queueStatus']('b-here')).toEqual({
      queue: null,
      checkedAt: 1_000_000,
      counts: null,
      workers: [],
      problem: null,
    });
    expect(reads()).toBe(0);
    await expect(h['batches.queueStatus']('b-none')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('Redis not reachable: an answer naming the address and why, the studio’s queues not touched', async () => {
    const address = `redis://127.0.0.1:${await closedPort()}`;
    const { queues, reads } = counted(studioQueues());
    const status = await domainWith(queues, { 'b-gone': address })['batches.queueStatus']('b-gone');
    expect(status).toMatchObject({ queue: address, counts: null, workers: [] });
    expect(status.problem).toBe(
      `Redis at ${address} cannot be reached: nothing listens at ${address.slice('redis://'.length)} (connection refused). Rows wait until it is back.`,
    );
    expect(reads()).toBe(0);
  });
});

describe("a queued batch's view", () => {
  const record = (queue: string | null): BatchRecord => ({
    version: 1,
    id: 'b1',
    label: 'lines',
    createdAt: 1,
    state: 'running',
    concurrency: 4,
    retry: [],
    invalid: [],
    template: '{row}',
    queue,
    rows: [0, 1, 2].map((row) => ({
      row,
      text: `Line ${row}.`,
      voiceId: 'v',
      rate: '50%',
      name: null,
      // Rows 0 and 1 were sent to the queue; row 2 waits its turn.
      state: row < 2 ? 'speech' : 'pending',
      take: 0,
      problems: [],
    })),
  });
  const noJobs: JobView[] = [];

  it('names its queue, and says its rows sent to the queue are queued (a worker has them), the rest waiting', () => {
    const view = batchView(record('redis://10.0.0.5:6380'), noJobs);
    expect(view.queue).toBe('redis://10.0.0.5:6380');
    expect(view.rows.map((r) => r.state)).toEqual(['queued', 'queued', 'waiting']);
    expect(view.counts).toEqual({ queued: 2, waiting: 1 });
  });

  it('made on this computer: no queue, and a row about to be sent still waits', () => {
    const view = batchView(record(null), noJobs);
    expect(view.queue).toBeNull();
    expect(view.rows.map((r) => r.state)).toEqual(['waiting', 'waiting', 'waiting']);
  });
});
