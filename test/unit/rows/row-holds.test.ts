// A row's whole price held on the one budget, in-process and in Redis: two holders (two studios, or two
// processes on one Redis) never both hold the last credits of a pool, a row of unknown price goes alone,
// and a holder that dies (SIGKILL: nothing released) frees its rows once its life lapses.
import { describe, expect, it } from 'vitest';
import { InProcessBudget, type Budget } from '../../../electron/services/jobs/budget';
import { RedisBudget } from '../../../electron/services/rows/money/redis-budget';
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
