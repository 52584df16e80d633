// The queue of takes (row-takes.ts) on a real Redis with a password, as queued runs use it: a take handed
// again while it waits is still one job, made once; takes are made side by side; a Redis restarted with
// takes under way and waiting loses none and makes none twice; and no log line shows the password (the
// outage's lines, which name the address, are queue-outage-log.test.ts's). The last two tests go through
// the studio's side too (queued-runs.ts): a worker's report that the account stopped it pauses the run;
// once a run's reports are taken in, nothing of it stays in Redis, so Redis holds no more after a run of
// 300 rows than after one of 30.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../electron/services/host/types';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import type { RowBase } from '../../../electron/services/rows/engine/row-kind';
import { QueuedRuns } from '../../../electron/services/rows/queue/queued-runs';
import { RowTakes, type RowTake } from '../../../electron/services/rows/queue/row-takes';
import type { RowReport } from '../../../electron/services/rows/queue/run-shelf';
import { redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';
import { queuedOnlyKind, type QueuedOnlyRun } from './queued-only-kind';

const PASSWORD = 'queue-secret-7q4xz9';
const redis = redisPerFile({ password: PASSWORD });

/** Every line the queues of this file log, fields included, as one text each. */
const lines: string[] = [];
const log: Logger = {
  debug: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  info: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  warn: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  error: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
};

const closing: (() => Promise<unknown>)[] = [];
let made = 0;
function takesOf(concurrency?: number): RowTakes {
  made += 1;
  const takes = new RowTakes({ url: redis().url, prefix: `takes-${process.pid}-${made}`, concurrency, log });
  closing.push(() => takes.closeWithin(0));
  return takes;
}
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  // Whatever a test did (Redis gone and back included), its password reached no log line.
  expect(lines.filter((line) => line.includes(PASSWORD))).toEqual([]);
});

const take = (row: number, runId = 'r'): RowTake => ({
  kind: 'campaign',
  runId,
  row: { row, state: 'pending', take: 0, problems: [] },
});
const at = (row: number, runId = 'r') => ({ kind: 'campaign', runId, row, take: 0 });
const report = ({ row }: RowTake): RowReport => ({
  row: row.row,
  take: row.take,
  outcome: 'ended',
  record: { ...row, state: 'done' },
  worker: 'w1',
});

/** A maker the test ends by hand, take by take; `started(n)` settles once n takes have started. */
function handMaker() {
  const running = new Map<string, () => void>();
  const ran: string[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const make = (given: RowTake) =>
    new Promise<RowReport>((end) => {
      const key = `${given.runId}/${given.row.row}`;
      ran.push(key);
      running.set(key, () => end(report(given)));
      for (const w of waiting.filter((x) => ran.length >= x.n)) w.resolve();
    });
  const started = (n: number) =>
    ran.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }));
  const endAll = () => {
    for (const [key, end] of [...running]) {
      running.delete(key);
      end();
    }
  };
  return { make, ran, running, started, endAll };
}

describe('the queue of takes on a real Redis', () => {
  it('makes a take handed three times while it waits once, and takes of other rows side by side', async () => {
    const takes = takesOf();
    const { make, ran, running, started, endAll } = handMaker();
    for (let i = 0; i < 3; i += 1) await takes.hand(take(0));
    await takes.hand(take(1));
    await takes.hand(take(0, 's'));
    takes.start(make);
    // All three start while none has ended.
    await started(3);
    expect(running.size).toBe(3);
    // Handed again while it is being made: still the one job.
    await takes.hand(take(0));
    endAll();
    await until('every report at the queue', async () =>
      (await Promise.all([at(0), at(1), at(0, 's')].map((a) => takes.report(a)))).every((r) => r !== null),
    );
    expect([...ran].sort()).toEqual(['r/0', 'r/1', 's/0']);
  });

  it('loses no take and makes none twice when Redis is restarted mid-run', async () => {
    // Three at a time: three takes are being made and three wait in Redis when it goes down.
    const takes = takesOf(3);
    const { make, ran, started, endAll } = handMaker();
    takes.start(make);
    for (let row = 0; row < 6; row += 1) await takes.hand(take(row));
    await started(3);
    // Redis stops (writing its append-only file) and comes back.
    await redis().restart();
    for (const row of [6, 7]) await takes.hand(take(row));
    endAll();
    await started(6);
    endAll();
    await started(8);
    endAll();
    const rows = [0, 1, 2, 3, 4, 5, 6, 7];
    await until('every report at the queue', async () =>
      (await Promise.all(rows.map((row) => takes.report(at(row))))).every((r) => r !== null),
    );
    expect([...ran].sort()).toEqual(rows.map((row) => `r/${row}`));
  });

  it("pauses the studio's run when a worker's report says the account stopped it, with no row failed", async () => {
    made += 1;
    const prefix = `stopped-${process.pid}-${made}`;
    const queues = new QueuedRuns({ prefix, log });
    const engine = new RowEngine({
      jobs: { list: () => [], submit: () => Promise.reject(new Error('nothing is sent here')) },
      remote: queues,
    });
    const kind = queuedOnlyKind(mkdtempSync(join(tmpdir(), 'studio-take-stopped-')), 'lines');
    engine.register(kind);
    const worker = new RowTakes({ url: redis().url, prefix, log });
    const message = 'The account is out of credits.';
    // Row 0 is stopped by the account; any other row the worker takes meanwhile is made.
    worker.start(async (given) =>
      given.row.row === 0
        ? {
            ...report(given),
            outcome: 'paused',
            record: given.row,
            pause: { reason: 'balance', at: 0, message, rowsLeft: 1, creditsLeft: null },
          }
        : report(given),
    );
    closing.push(
      async () => engine.stop(),
      () => queues.close(),
      () => worker.closeWithin(0),
    );
    const rows: RowBase[] = [0, 1, 2].map((row) => ({ row, state: 'pending', take: 0, problems: [] }));
    const run: QueuedOnlyRun = {
      id: 'stopped',
      createdAt: 1,
      state: 'running',
      rows,
      queue: queues.address(redis().url),
    };
    await engine.create('lines', run);
    const ended = await engine.run('lines', 'stopped');
    expect(ended.state).toBe('paused');
    expect(ended.pause).toMatchObject({ reason: 'balance', message });
    expect(ended.rows.filter((r) => r.state === 'failed')).toEqual([]);
    // The stopped row waits with those not started, for the run's resume. Its report can be taken in just
    // after the run paused (the account's pause may reach this studio first): its record is waited for.
    await until('the stopped row back with the rows not started', async () => {
      await engine.flush();
      return (await kind.runs.get('stopped'))?.rows[0]?.state === 'pending';
    });
    const record = await kind.runs.get('stopped');
    expect(record?.rows.filter((r) => r.state === 'failed')).toEqual([]);
    expect(record?.state).toBe('paused');
  });

  it('keeps nothing of a run whose reports its studio took in: no more after 300 rows than after 30', async () => {
    made += 1;
    const prefix = `kept-${process.pid}-${made}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-take-queue-'));
    const queues = new QueuedRuns({ prefix, log });
    const engine = new RowEngine({
      jobs: { list: () => [], submit: () => Promise.reject(new Error('nothing is sent here')) },
      remote: queues,
    });
    engine.register(queuedOnlyKind(dataDir, 'lines'));
    const worker = new RowTakes({ url: redis().url, prefix, log });
    worker.start(async (given) => report(given));
    const client = new Redis(redis().url);
    closing.push(
      async () => engine.stop(),
      () => queues.close(),
      () => worker.closeWithin(0),
      () => client.quit(),
    );
    // Keys that stay (a key with a time to live, such as BullMQ's stalled-jobs check, goes by itself).
    const kept = async () => {
      const keys = await client.keys(`${prefix}:*`);
      const ttls = await Promise.all(keys.map((key) => client.pttl(key)));
      return keys.filter((_, i) => ttls[i] === -1).sort();
    };
    const runOf = async (id: string, count: number) => {
      const rows: RowBase[] = Array.from({ length: count }, (_, row) => ({
        row,
        state: 'pending',
        take: 0,
        problems: [],
      }));
      const run: QueuedOnlyRun = { id, createdAt: 1, state: 'running', rows, queue: queues.address(redis().url) };
      await engine.create('lines', run);
      const ended = await engine.run('lines', id);
      expect(ended.rows.every((r) => r.state === 'done')).toBe(true);
      await until(`nothing of run ${id} left in Redis`, async () =>
        (await kept()).every((key) => !key.includes(`/${id}/`) && !key.includes(`:${id}`)),
      );
    };
    await runOf('small', 30);
    const afterSmall = await kept();
    await runOf('large', 300);
    expect((await kept()).length).toBeLessThanOrEqual(afterSmall.length);
  });
});
