// Where a campaign's rows are made, as the page asks it (campaigns.queueStatus), against a real Redis
// with a password: a queued campaign's address without the password, BullMQ's counts and the workers
// connected to it (BullMQ's getWorkers) with what each said of itself; a campaign on this computer reads nothing; a Redis that is gone or refuses the studio is
// an answer saying so, not a throw.
import { afterAll, describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../../electron/common/campaign/record';
import { createCampaignsDomain, type CampaignsDomainDeps } from '../../../electron/services/campaign/campaigns-domain';
import { RowTakes } from '../../../electron/services/rows/queue/row-takes';
import { QueuedRuns } from '../../../electron/services/rows/queue/queued-runs';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { redisTarget } from '../../../electron/services/rows/queue/redis-target';
import { Redis } from 'ioredis';
import { redisPerFile } from '../../redis-per-file';
import { HANG_GUARD_MS, until } from '../../wait';
import { queueStatusReader } from '../../../electron/services/rows/queue/queue-status';
import { closedPort } from '../../closed-port';

const PASSWORD = 'queue-status-secret';
const redis = redisPerFile({ password: PASSWORD });
const PREFIX = 'queue-status';
const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

/** The campaigns domain over the studio's queues, with the campaigns the test names (only their queue matters here). */
function domainWith(queues: QueuedRuns, campaigns: Record<string, string | null>, guardMs = HANG_GUARD_MS) {
  const queue: CampaignsDomainDeps['queue'] = {
    address: (url) => queues.address(url),
    link: async (value) => value,
    workers: (address) => queues.workers(address),
    counts: (address) => queues.counts(address),
  };
  const runner = {
    get: async (id: string) => (id in campaigns ? ({ id, queue: campaigns[id] } as CampaignRecord) : null),
  };
  return createCampaignsDomain({ jobs: {}, catalogue: {} } as never, {
    runner: runner as unknown as CampaignsDomainDeps['runner'],
    openProject: () => Promise.reject(new Error('not asked here')),
    pathOf: () => null,
    checkLinks: async () => [],
    stills: {} as CampaignsDomainDeps['stills'],
    queue,
    queueReadGuardMs: guardMs,
    now: () => 1_000_000,
  }).handlers;
}

function studioQueues(): QueuedRuns {
  const queues = new QueuedRuns({ prefix: PREFIX });
  closing.push(() => queues.close());
  return queues;
}

describe("a campaign's queue as the page reads it", () => {
  it('on a queue: its address without the password, the queue’s counts and the workers connected to it, with what each said', async () => {
    const url = redis().url;
    const queues = studioQueues();
    // The address as a campaign records it, given once with its password as the user typed it.
    const address = queues.address(url);
    expect(address).toBe(`redis://127.0.0.1:${redis().port}`);

    // Three rows handed as a studio hands them; two workers connected under their names, each making one.
    const pusher = new RowTakes({ url, prefix: PREFIX });
    closing.push(() => pusher.closeWithin(0));
    for (const row of [0, 1, 2])
      await pusher.hand({ kind: 'campaign', runId: 'c-queued', row: { row, state: 'queued', take: 0, problems: [] } });
    let letGo = (): void => undefined;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const taken: number[] = [];
    const workers = ['w-b', 'w-a'].map((workerName) => {
      const worker = new RowTakes({ url, prefix: PREFIX, concurrency: 1, workerName });
      worker.start(async (take) => {
        taken.push(take.row.row);
        await held;
        return { row: take.row.row, take: 0, outcome: 'not-run', record: take.row, worker: workerName };
      });
      return worker;
    });
    closing.push(async () => (letGo(), await Promise.all(workers.map((w) => w.closeWithin(0)))));
    await until('both workers making a row', async () => taken.length === 2);
    // What the workers said of themselves, as `studio worker` writes it, and what one long gone said a day ago.
    const client = new Redis(redisTarget(url).options);
    closing.push(() => client.quit());
    const shelf = new RunShelf(client, PREFIX);
    const now = Date.now();
    await shelf.tell({ id: 'w-b', host: 'render-2', pid: 22, startedAt: now, at: now, running: 1, done: 7 });
    await shelf.tell({ id: 'w-a', host: 'render-1', pid: 11, startedAt: now, at: now, running: 1, done: 3 });
    await shelf.tell({
      id: 'w-old',
      host: 'render-9',
      pid: 9,
      startedAt: 0,
      at: now - 2 * 86_400_000,
      running: 0,
      done: 50,
    });

    const h = domainWith(queues, { 'c-queued': address });
    const status = await h['campaigns.queueStatus']('c-queued');
    expect(status).toMatchObject({
      queue: address,
      checkedAt: 1_000_000,
      problem: null,
      counts: { waiting: 1, active: 2, delayed: 0, failed: 0 },
      workers: [
        { name: 'w-a', host: 'render-1', running: 1, done: 3 },
        { name: 'w-b', host: 'render-2', running: 1, done: 7 },
      ],
    });
    // Connected for a few seconds at most, dated on the host's clock (the domain's, here 1,000,000).
    for (const w of status.workers) expect(1_000_000 - w.connectedAt).toBeLessThanOrEqual(HANG_GUARD_MS);
    expect(JSON.stringify(status)).not.toContain(PASSWORD);
    // What a worker gone for a day said is removed; one that stops leaves the list at once, its facts kept.
    expect([...(await shelf.workerFacts()).keys()].sort()).toEqual(['w-a', 'w-b']);
    await workers[0].closeWithin(0);
    expect((await h['campaigns.queueStatus']('c-queued')).workers.map((w) => w.name)).toEqual(['w-a']);
  });

  it('on this computer: says there is no queue and reads nothing', async () => {
    let asked = 0;
    const queues = studioQueues();
    const counting = Object.assign(Object.create(queues) as QueuedRuns, {
      workers: (address: string) => (asked++, queues.workers(address)),
      counts: (address: string) => (asked++, queues.counts(address)),
    });
    const h = domainWith(counting, { 'c-here': null });
    expect(await h['campaigns.queueStatus']('c-here')).toEqual({
      queue: null,
      checkedAt: 1_000_000,
      counts: null,
      workers: [],
      problem: null,
    });
    expect(asked).toBe(0);
    await expect(h['campaigns.queueStatus']('c-none')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('Redis not reachable: an answer naming the address and why, without the studio’s queues touching it', async () => {
    const address = `redis://127.0.0.1:${await closedPort()}`;
    const queues = studioQueues();
    let reads = 0;
    const counting = Object.assign(Object.create(queues) as QueuedRuns, {
      workers: (shown: string) => (reads++, queues.workers(shown)),
      counts: (shown: string) => (reads++, queues.counts(shown)),
    });
    const h = domainWith(counting, { 'c-gone': address });
    const status = await h['campaigns.queueStatus']('c-gone');
    expect(status).toMatchObject({ queue: address, counts: null, workers: [] });
    expect(status.problem).toBe(
      `Redis at ${address} cannot be reached: nothing listens at ${address.slice('redis://'.length)} (connection refused). Rows wait until it is back.`,
    );
    // Its client would keep those commands until Redis came back, and could not be closed meanwhile.
    expect(reads).toBe(0);
  });

  it('Redis that takes the connection and then says nothing: answered at the guard, one read at a time', async () => {
    let reads = 0;
    // Reads that never end, as a client's commands wait while its Redis is silent.
    const silent = {
      workers: () => (reads++, new Promise<never>(() => undefined)),
      counts: () => new Promise<never>(() => undefined),
    };
    // The guard is the answer's own limit, not a verdict on speed: these reads can never end.
    const status = queueStatusReader(silent, { now: () => 5, guardMs: 200, reach: async () => null });
    const first = await status('redis://quiet:6379');
    expect(first).toEqual({
      queue: 'redis://quiet:6379',
      checkedAt: 5,
      counts: null,
      workers: [],
      problem:
        'Redis at redis://quiet:6379 did not answer within 0.2 s: it is busy, stopped answering, or is not Redis. Rows wait until it answers.',
    });
    // Asked again (the page refreshes): it waits on the read already under way instead of adding one.
    expect((await status('redis://quiet:6379')).problem).toContain('did not answer');
    expect(reads).toBe(1);
  });

  it('Redis asks for a password the studio no longer holds (started again since): an answer saying so', async () => {
    // A fresh studio's queues: the campaign recorded the address only, never the password.
    const queues = studioQueues();
    const address = `redis://127.0.0.1:${redis().port}`;
    const h = domainWith(queues, { 'c-locked': address });
    const status = await h['campaigns.queueStatus']('c-locked');
    expect(status).toMatchObject({ queue: address, counts: null, workers: [] });
    expect(status.problem).toMatch(/asks for a password this studio does not hold: /);
    expect(status.problem).toContain('NOAUTH');
  });
});
