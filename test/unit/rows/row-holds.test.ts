// A row's whole price held on the one budget, in-process and in Redis: two holders (two studios, or two
// processes on one Redis) never both hold the last credits of a pool, a row of unknown price goes alone,
// and a holder that dies (SIGKILL: nothing released) frees its rows once its life lapses.
import { describe, expect, it, vi } from 'vitest';
import { InProcessBudget, type Budget } from '../../../electron/services/jobs/budget';
import { RedisBudget } from '../../../electron/services/rows/money/redis-budget';
import { RowHolds } from '../../../electron/services/jobs/row-holds';
import { redisClients, redisPerFile } from '../../redis-per-file';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

const account = (room: number | null) => ({ pool: 'account:a1', room });

describe.each([
  {
    name: 'in-process',
    pair: (): [Budget, Budget] => {
      const one = new InProcessBudget();
      return [one, one];
    },
  },
  {
    name: 'Redis',
    pair: (): [Budget, Budget] => {
      const p = prefix();
      return [new RedisBudget(client(), p), new RedisBudget(client(), p)];
    },
  },
])('rows held on the budget ($name)', ({ pair }) => {
  it('lets two holders asking at once hold only the rows the room covers', async () => {
    const [a, b] = pair();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).hold(`r${i}`, 12, [account(40)])),
    );
    expect(answers.filter((x) => x.held)).toHaveLength(3);
    // The last credits: 4 left beside the three rows held, whoever holds them.
    expect(await b.hold('r10', 12, [account(40)])).toEqual({ held: false, bound: 0, free: 4, beside: 3 });
    const held = answers.findIndex((x) => x.held);
    await (held % 2 === 0 ? a : b).release(`r${held}`, ['account:a1']);
    expect((await b.hold('r10', 12, [account(40)])).held).toBe(true);
  });

  it('holds on every bound or on none, and says which bound refused', async () => {
    const [a, b] = pair();
    const bounds = (cap: number) => [account(100), { pool: 'run:x', room: cap }];
    expect((await a.hold('x1', 12, bounds(20))).held).toBe(true);
    expect(await b.hold('x2', 12, bounds(20))).toEqual({ held: false, bound: 1, free: 8, beside: 1 });
    // Refused at the cap, x2 holds nothing on the account either.
    expect(await b.hold('y1', 88, [account(100)])).toEqual({ held: true });
    expect(await a.hold('y2', 1, [account(100)])).toEqual({ held: false, bound: 0, free: 0, beside: 2 });
  });

  it('lets a row of unknown price go alone, and keeps a row under way whatever the room', async () => {
    const [a, b] = pair();
    expect((await a.hold('k1', 1, [account(null)])).held).toBe(true);
    expect(await b.hold('u1', null, [account(null)])).toEqual({ held: false, bound: 0, free: null, beside: 1 });
    await a.release('k1', ['account:a1']);
    expect((await b.hold('u1', null, [account(5)])).held).toBe(true);
    expect((await a.hold('k2', 1, [account(null)])).held).toBe(false);
    await b.release('u1', ['account:a1']);
    await a.keep('k3', 50, ['account:a1']);
    expect(await b.hold('k4', 1, [account(40)])).toEqual({ held: false, bound: 0, free: -10, beside: 1 });
  });
});

describe('rows held in Redis by a process that died', () => {
  it('count until its life lapses, then no longer', async () => {
    const p = prefix();
    const dead = new RedisBudget(client(), p, 300);
    const live = new RedisBudget(client(), p, 300);
    expect((await dead.hold('d1', 30, [account(40)])).held).toBe(true);
    // SIGKILLed: it renews nothing and releases nothing from here on.
    (dead as unknown as { held: Set<string> }).held.clear();
    await dead.release('none', []);
    expect((await live.hold('l1', 30, [account(40)])).held).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await live.hold('l1', 30, [account(40)])).held).toBe(true);
  });

  it('count while it lives, its life renewed as long as it holds a row', async () => {
    const p = prefix();
    const one = new RedisBudget(client(), p, 300);
    const other = new RedisBudget(client(), p, 300);
    expect((await one.hold('o1', 30, [account(40)])).held).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await other.hold('t1', 30, [account(40)])).held).toBe(false);
    await one.release('o1', ['account:a1']);
  });
});

// What a worker reads before it makes a queued row: made only while its studio's hold stands, or on a
// hold it takes over from a studio gone (the row was held when handed over, and still counts).
describe("a queued row's hold, as a worker reads it", () => {
  const run = 'run:campaign/c1';
  const pools = [run, 'account:a1'];
  it('stands while its holder holds it, not once released, and is taken over from a holder gone', async () => {
    const p = prefix();
    const studio = new RedisBudget(client(), p, 300);
    const worker = new RedisBudget(client(), p, 300);
    const other = new RedisBudget(client(), p, 300);
    expect(await worker.heldOrTaken('campaign/c1/1', pools)).toBeNull();
    expect((await studio.hold('campaign/c1/1', 30, [{ pool: run, room: null }, account(null)])).held).toBe(true);
    expect(await worker.heldOrTaken('campaign/c1/1', pools)).toBe('held');
    await studio.release('campaign/c1/1', pools);
    expect(await worker.heldOrTaken('campaign/c1/1', pools)).toBeNull();
    const dead = new RedisBudget(client(), p, 300);
    expect((await dead.hold('campaign/c1/2', 30, [{ pool: run, room: null }, account(null)])).held).toBe(true);
    // SIGKILLed: it renews nothing from here on.
    (dead as unknown as { held: Map<string, unknown> }).held.clear();
    await dead.release('none', []);
    expect(await worker.heldOrTaken('campaign/c1/2', pools)).toBe('held');
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await worker.heldOrTaken('campaign/c1/2', pools)).toBe('taken');
    // Taken over, it counts on the account in the worker's name: 30 of a room of 40 stay held.
    expect(await other.hold('o1', 30, [account(40)])).toMatchObject({ held: false, free: 10 });
    await worker.release('campaign/c1/2', pools);
    expect((await other.hold('o1', 30, [account(40)])).held).toBe(true);
  });
});

describe("a held row Redis lost (restarted without its data, or dropped as a lapsed holder's)", () => {
  it('stands again once its living holder renews its life', async () => {
    const p = prefix();
    const redis = client();
    const studio = new RedisBudget(redis, p, 300);
    const worker = new RedisBudget(client(), p, 300);
    expect((await studio.hold('campaign/c1/1', 30, [{ pool: 'run:campaign/c1', room: null }])).held).toBe(true);
    for (const key of await redis.keys(`${p}:budget:*`)) await redis.del(key);
    expect(await worker.heldOrTaken('campaign/c1/1', ['run:campaign/c1'])).toBeNull();
    await vi.waitFor(async () => expect(await worker.heldOrTaken('campaign/c1/1', ['run:campaign/c1'])).toBe('held'), {
      timeout: 5_000,
      interval: 20,
    });
    await studio.release('campaign/c1/1', ['run:campaign/c1']);
    expect(await worker.heldOrTaken('campaign/c1/1', ['run:campaign/c1'])).toBeNull();
  });

  // The renewal writes each pool's rows in one command: every row stands again in every pool it held.
  it('stands again in each of its pools, beside the other rows held', async () => {
    const p = prefix();
    const redis = client();
    const studio = new RedisBudget(redis, p, 300);
    const worker = new RedisBudget(client(), p, 300);
    const run = (n: number) => ({ pool: `run:campaign/c${n}`, room: null });
    const both = ['run:campaign/c1', 'account:a1'];
    for (const n of [1, 2, 3])
      expect((await studio.hold(`campaign/c1/${n}`, 10, [run(1), account(100)])).held).toBe(true);
    expect((await studio.hold('campaign/c2/1', 20, [run(2)])).held).toBe(true);
    for (const key of await redis.keys(`${p}:budget:*`)) await redis.del(key);
    await vi.waitFor(async () => expect(await worker.heldOrTaken('campaign/c2/1', ['run:campaign/c2'])).toBe('held'), {
      timeout: 5_000,
      interval: 20,
    });
    for (const n of [1, 2, 3]) {
      expect(await worker.heldOrTaken(`campaign/c1/${n}`, both)).toBe('held');
      expect(await worker.heldOrTaken(`campaign/c1/${n}`, ['account:a1'])).toBe('held');
    }
    // Their prices stand with them: 30 of the account's 100 are held, so 71 do not fit.
    expect(await worker.hold('campaign/c3/1', 71, [account(100)])).toEqual({
      held: false,
      bound: 0,
      free: 70,
      beside: 3,
    });
  });
});

// Fails when a queued run's rows are held in each studio's own memory rather than on its queue's Redis.
describe('two studios sending queued runs on one account', () => {
  it('never both hold the last credits of its balance', async () => {
    const p = prefix();
    const studio = () => {
      const onQueue = new RedisBudget(client(), p);
      return new RowHolds({ queue: async () => onQueue, account: async () => 'proof-of-a1' });
    };
    const [one, other] = [studio(), studio()];
    // Each studio has its own connection id for the account, and reads the same balance of 40.
    const place = (connection: string, n: number) => ({
      row: `campaign/${connection}/${n}`,
      run: `campaign/${connection}`,
      connection,
      queue: 'redis://127.0.0.1:1',
    });
    const rooms = () => ({ balance: 40, day: null, cap: null });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        (n % 2 === 0 ? one : other).hold(place(n % 2 === 0 ? 'c1' : 'c2', n), 12, rooms),
      ),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(3);
    expect(answers.find((a) => !a.ok)).toMatchObject({ ok: false, reason: 'balance', free: 4, beside: 3 });
    // A row of one studio ends: the other may start one.
    const ended = answers.findIndex((a) => a.ok);
    (ended % 2 === 0 ? one : other).release(place(ended % 2 === 0 ? 'c1' : 'c2', ended).row);
    const waiting = answers.findIndex((a) => !a.ok);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(
      (await (waiting % 2 === 0 ? one : other).hold(place(waiting % 2 === 0 ? 'c1' : 'c2', waiting), 12, rooms)).ok,
    ).toBe(true);
  });

  it('hold a run that is not queued in the studio alone', async () => {
    const shared = new RedisBudget(client(), prefix());
    const holds = new RowHolds({ queue: async () => shared, account: async () => 'proof-of-a1' });
    const rooms = () => ({ balance: 12, day: null, cap: null });
    expect((await holds.hold({ row: 'batch/b/1', run: 'batch/b', connection: 'c1', queue: null }, 12, rooms)).ok).toBe(
      true,
    );
    expect(await shared.hold('probe', 12, [{ pool: 'account:proof-of-a1', room: 12 }])).toEqual({ held: true });
  });
});
