// A run belongs to one service account, and a worker proves it serves that account before it makes a row:
// a worker with other credentials (another account, another sandbox) or with none makes nothing, says why once, and
// gives the row back for a worker of the run's own account.
import { describe, expect, it, vi } from 'vitest';
import { runAccount } from '../../../electron/services/client/account-proof';
import { RowTakes } from '../../../electron/services/rows/queue/row-takes';
import { holdRow } from './held-row';
import type { RowBase, RunBase } from '../../../electron/services/rows/engine/row-kind';
import { RowWorker, type RowMaker } from '../../../electron/services/rows/queue/row-worker';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { redisClients, redisPerFile } from '../../redis-per-file';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);
const HANG_GUARD = { timeout: 30_000, interval: 20 };

describe("a run's account", () => {
  it('is a proof that shows no secret, differs by key and run, and holds through another address', () => {
    const key = { kind: 'api-key' as const, apiKey: 'sk-live-0123456789abcdef' };
    const a = runAccount('https://api.example.com/v3', key, 'run1');
    expect(a).toEqual({ origin: 'https://api.example.com', proof: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(JSON.stringify(a)).not.toContain('0123456789abcdef');
    expect(runAccount('https://api.example.com', key, 'run1')).toEqual(a);
    expect(runAccount('https://api.example.com', { kind: 'api-key', apiKey: 'sk-other' }, 'run1')?.proof).not.toBe(
      a?.proof,
    );
    // The same credentials through another address (a proxy) pay the same account.
    expect(runAccount('http://127.0.0.1:4000', key, 'run1')).toEqual({
      origin: 'http://127.0.0.1:4000',
      proof: a?.proof,
    });
    expect(runAccount('https://api.example.com', key, 'run2')?.proof).not.toBe(a?.proof);
    expect(runAccount('https://api.example.com', undefined, 'run1')).toBeNull();
  });

  async function queued(account: ReturnType<typeof runAccount>) {
    const space = prefix();
    const shelf = new RunShelf(client(), space);
    const run = { id: 'c1', createdAt: 0, state: 'running', rows: [], account } as RunBase<RowBase>;
    await shelf.putRun('campaign', run);
    const takes = new RowTakes({ url: redis().url, prefix: space });
    await holdRow(client(), space, 'campaign', 'c1', 0);
    await takes.hand({ kind: 'campaign', runId: 'c1', row: { row: 0, state: 'voiceover', take: 0, problems: [] } });
    await takes.closeWithin(0);
    return { shelf, space };
  }

  /** The report of the run's one row, as the queue keeps it for its studio. */
  async function reportOf(space: string) {
    const takes = new RowTakes({ url: redis().url, prefix: space });
    try {
      return await takes.report({ kind: 'campaign', runId: 'c1', row: 0, take: 0 });
    } finally {
      await takes.closeWithin(0);
    }
  }

  function worker(space: string, serves: ReturnType<typeof runAccount>, refusedHoldMs = 0, files = true) {
    const made: number[] = [];
    const refused: string[] = [];
    const maker: RowMaker = {
      kind: 'campaign',
      files,
      make: async (_run, row) => {
        made.push(row.row);
        return { outcome: 'ended', record: { ...row, state: 'done' } };
      },
    };
    const w = new RowWorker({
      url: redis().url,
      prefix: space,
      makers: [maker],
      account: async () => serves,
      refused: (message) => refused.push(message),
      refusedHoldMs,
    });
    return { w, made, refused };
  }

  const priced = runAccount('http://127.0.0.1:4000', { kind: 'api-key', apiKey: 'sandbox-key-a' }, 'c1');
  const cases: [string, ReturnType<typeof runAccount>, RegExp][] = [
    [
      'another account',
      runAccount('http://127.0.0.1:4000', { kind: 'api-key', apiKey: 'key-b' }, 'c1'),
      /not those of the account/,
    ],
    [
      'another sandbox',
      runAccount('http://127.0.0.1:5000', { kind: 'api-key', apiKey: 'sandbox-key-b' }, 'c1'),
      /priced on http:\/\/127\.0\.0\.1:4000 and this worker serves http:\/\/127\.0\.0\.1:5000 with other credentials/,
    ],
    ['no credentials', null, /no credentials for http:\/\/127\.0\.0\.1:4000/],
  ];
  for (const [name, serves, why] of cases)
    it(`is refused by a worker of ${name}: it makes nothing, says why once, and gives the row back to the queue`, async () => {
      const { space } = await queued(priced);
      const { w, made, refused } = worker(space, serves, 60_000);
      const queue = new RowTakes({ url: redis().url, prefix: space });
      w.start();
      // Back on the queue, waiting for any worker: the studio that queued it hears nothing.
      await vi.waitFor(
        async () => expect(await queue.queue.getJobCounts('delayed')).toEqual({ delayed: 1 }),
        HANG_GUARD,
      );
      await w.stopWithin(0);
      await queue.closeWithin(0);
      expect(await reportOf(space)).toBeNull();
      expect(made).toEqual([]);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatch(why);
      expect(refused[0]).not.toContain('sandbox-key-a');
    });

  it("given back, is made by a worker of the run's own account beside the one that refuses it", async () => {
    const { space } = await queued(priced);
    const wrong = worker(space, null, 0);
    const right = worker(space, priced);
    wrong.w.start();
    await vi.waitFor(() => expect(wrong.refused).toHaveLength(1), HANG_GUARD);
    right.w.start();
    await vi.waitFor(async () => expect((await reportOf(space))?.outcome).toBe('ended'), HANG_GUARD);
    await Promise.all([wrong.w.stopWithin(0), right.w.stopWithin(0)]);
    expect(wrong.made).toEqual([]);
    expect(right.made).toEqual([0]);
  });

  it('is refused by a worker of the right account whose pictures the service could not fetch', async () => {
    const { space } = await queued(priced);
    const refused: string[] = [];
    const made: number[] = [];
    const w = new RowWorker({
      url: redis().url,
      prefix: space,
      id: 'w-media',
      makers: [{ kind: 'campaign', make: async (_r, row) => (made.push(row.row), { outcome: 'ended', record: row }) }],
      account: async () => priced,
      media: async (origin) => `its storage is on this machine only, and ${origin} is elsewhere`,
      refused: (message) => refused.push(message),
      refusedHoldMs: 60_000,
    });
    const queue = new RowTakes({ url: redis().url, prefix: space });
    w.start();
    await vi.waitFor(async () => expect(await queue.queue.getJobCounts('delayed')).toEqual({ delayed: 1 }), HANG_GUARD);
    await w.stopWithin(0);
    await queue.closeWithin(0);
    expect(await reportOf(space)).toBeNull();
    expect(made).toEqual([]);
    expect(refused).toEqual([
      'Worker w-media makes no row of campaign c1: its storage is on this machine only, and http://127.0.0.1:4000 is elsewhere. Start it with a storage the service reaches (--media-storage).',
    ]);
  });

  const bucket = (name: string) => ({ kind: 's3' as const, endpoint: 'https://s3.example.com', bucket: name });
  it("is refused by a worker of its account whose pictures would go to another storage than the run's", async () => {
    const { space } = await queued(priced && { ...priced, storage: bucket('media') });
    const { w, made, refused } = worker(space, priced && { ...priced, storage: bucket('other') }, 60_000);
    const queue = new RowTakes({ url: redis().url, prefix: space });
    w.start();
    await vi.waitFor(async () => expect(await queue.queue.getJobCounts('delayed')).toEqual({ delayed: 1 }), HANG_GUARD);
    await w.stopWithin(0);
    await queue.closeWithin(0);
    expect(await reportOf(space)).toBeNull();
    expect(made).toEqual([]);
    expect(refused).toEqual([
      `Worker ${w.id} makes no row of campaign c1: the run's links go to the bucket media at https://s3.example.com, and the pictures this worker renders would go to the bucket other at https://s3.example.com. Start it with the run's storage (--media-storage).`,
    ]);
  });

  it('is made whatever the storage by a worker whose rows send no file of its own (a batch)', async () => {
    const { space } = await queued(priced && { ...priced, storage: bucket('media') });
    const { w, made, refused } = worker(space, priced && { ...priced, storage: bucket('other') }, 0, false);
    w.start();
    await vi.waitFor(async () => expect((await reportOf(space))?.outcome).toBe('ended'), HANG_GUARD);
    await w.stopWithin(0);
    expect(made).toEqual([0]);
    expect(refused).toEqual([]);
  });

  const storages: [
    string,
    ReturnType<typeof bucket> | null,
    ReturnType<typeof bucket> | { kind: 'sandbox'; endpoint: string },
  ][] = [
    ["the run's own storage", bucket('media'), bucket('media')],
    // Its service's sandbox serves the run's files: the run asks nothing of its workers' storage.
    ['any storage, for a run that records none', null, bucket('other')],
  ];
  for (const [name, runs, own] of storages)
    it(`is made by a worker of ${name}`, async () => {
      const { space } = await queued(priced && { ...priced, storage: runs });
      const { w, made, refused } = worker(space, priced && { ...priced, storage: own });
      w.start();
      await vi.waitFor(async () => expect((await reportOf(space))?.outcome).toBe('ended'), HANG_GUARD);
      await w.stopWithin(0);
      expect(made).toEqual([0]);
      expect(refused).toEqual([]);
    });

  it("is made by a worker of the run's own account", async () => {
    const { space } = await queued(priced);
    const { w, made, refused } = worker(space, priced);
    w.start();
    await vi.waitFor(async () => expect((await reportOf(space))?.outcome).toBe('ended'), HANG_GUARD);
    await w.stopWithin(0);
    expect(made).toEqual([0]);
    expect(refused).toEqual([]);
  });
});
