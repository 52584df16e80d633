// The one budget of bulk work: a row's whole price is reserved before it starts, against the balance as
// last read, the day's limit and the run's cap; an ended row counts as spent until the next reading.
import { describe, expect, it } from 'vitest';
import { RowBudget } from '../../../electron/services/rows/money/row-budget';
import { RowHolds } from '../../../electron/services/jobs/row-holds';

const open = { dayRoom: () => null, capRoom: () => null };
const place = (connection: string, run: string, row: string) => ({ row, run, connection, queue: null });

function budget(balance: number | null) {
  let now = 0;
  const reads: number[] = [];
  const b = new RowBudget(
    async () => {
      reads.push(now);
      return balance;
    },
    new RowHolds(),
    { clock: { now: () => now } },
  );
  return {
    b,
    reads,
    at: (t: number) => (now = t),
    setBalance: (n: number | null) => (balance = n),
  };
}

describe('the row budget', () => {
  it('starts rows only while the balance covers their whole price, counting rows under way', async () => {
    const { b } = budget(40);
    await b.refresh('c');
    // Rows of 12 credits (two voiceovers and a video): three fit in 40, the fourth does not.
    for (const row of [1, 2, 3]) expect((await b.reserve(place('c', 'run', `r${row}`), 12, open)).ok).toBe(true);
    // 4 left beside the three rows held.
    expect(await b.reserve(place('c', 'run', 'r4'), 12, open)).toEqual({
      ok: false,
      reason: 'balance',
      short: 8,
      free: 4,
      beside: 3,
    });
  });

  it('counts an ended row as spent until the balance is read again, then trusts the reading', async () => {
    const t = budget(24);
    await t.b.refresh('c');
    expect((await t.b.reserve(place('c', 'run', 'r1'), 12, open)).ok).toBe(true);
    expect((await t.b.reserve(place('c', 'run', 'r2'), 12, open)).ok).toBe(true);
    t.b.release('r1', true);
    // The service may not show r1's charges yet: its 12 credits stay counted.
    expect((await t.b.reserve(place('c', 'run', 'r3'), 12, open)).ok).toBe(false);
    t.setBalance(12);
    t.at(1);
    await t.b.refresh('c');
    // The reading includes r1's charges (12 left), and r2 still holds its 12: nothing is free yet.
    expect(await t.b.reserve(place('c', 'run', 'probe'), 1, open)).toMatchObject({ ok: false, free: 0 });
    t.b.release('r2', true);
    t.setBalance(0);
    t.at(2);
    await t.b.refresh('c');
    expect(await t.b.reserve(place('c', 'run', 'probe'), 1, open)).toMatchObject({ ok: false, free: 0 });
  });

  it('gives back a row that went back to waiting without counting it as spent', async () => {
    const { b } = budget(12);
    await b.refresh('c');
    expect((await b.reserve(place('c', 'run', 'r1'), 12, open)).ok).toBe(true);
    b.release('r1', false);
    expect((await b.reserve(place('c', 'run', 'r2'), 12, open)).ok).toBe(true);
  });

  it("holds rows to the day's limit and the run's cap beside the balance", async () => {
    const { b } = budget(1_000);
    await b.refresh('c');
    const day = { dayRoom: () => 30, capRoom: () => null };
    expect((await b.reserve(place('c', 'a', 'a1'), 12, day)).ok).toBe(true);
    expect((await b.reserve(place('c', 'b', 'b1'), 12, day)).ok).toBe(true);
    // The day's room is shared by every run on the connection.
    expect(await b.reserve(place('c', 'b', 'b2'), 12, day)).toMatchObject({
      ok: false,
      reason: 'daily-limit',
      short: 6,
    });
    const cap = { dayRoom: () => null, capRoom: () => 20 };
    expect((await b.reserve(place('d', 'x', 'x1'), 12, cap)).ok).toBe(true);
    expect(await b.reserve(place('d', 'x', 'x2'), 12, cap)).toMatchObject({ ok: false, reason: 'cap', short: 4 });
    // Another run's cap is its own.
    expect((await b.reserve(place('d', 'y', 'y1'), 12, cap)).ok).toBe(true);
  });

  it('lets a row of a price nobody can say go alone, and none once the balance is spent', async () => {
    const t = budget(5);
    await t.b.refresh('c');
    expect((await t.b.reserve(place('c', 'run', 'k1'), 1, open)).ok).toBe(true);
    // Not beside a row under way, and nothing beside it.
    expect((await t.b.reserve(place('c', 'run', 'r1'), null, open)).ok).toBe(false);
    t.b.release('k1', false);
    expect((await t.b.reserve(place('c', 'run', 'r1'), null, open)).ok).toBe(true);
    expect((await t.b.reserve(place('c', 'run', 'r2'), null, open)).ok).toBe(false);
    expect((await t.b.reserve(place('c', 'other', 'k2'), 1, open)).ok).toBe(false);
    t.b.release('r1', true);
    // What r1 cost only a new reading can say: nothing starts until it comes.
    expect(t.b.stale('c')).toBe(true);
    await t.b.refresh('c');
    expect((await t.b.reserve(place('c', 'run', 'r2'), null, open)).ok).toBe(true);
    t.b.release('r2', true);
    t.setBalance(0);
    t.at(1);
    await t.b.refresh('c');
    expect((await t.b.reserve(place('c', 'run', 'r3'), null, open)).ok).toBe(false);
  });

  it('does not bound rows by a balance the service does not say', async () => {
    const { b } = budget(null);
    await b.refresh('c');
    expect((await b.reserve(place('c', 'run', 'r1'), 1e9, open)).ok).toBe(true);
    expect((await b.reserve(place('c', 'run', 'r2'), 1e9, open)).ok).toBe(true);
  });

  it('reads again when asked after a while, and shares one reading between askers', async () => {
    const t = budget(10);
    expect(t.b.stale('c')).toBe(true);
    await Promise.all([t.b.refresh('c'), t.b.refresh('c')]);
    expect(t.reads).toEqual([0]);
    expect(t.b.stale('c')).toBe(false);
    t.at(61_000);
    expect(t.b.stale('c')).toBe(true);
    // Forgetting (Resume after a top-up) makes the next row wait for a new reading.
    await t.b.refresh('c');
    t.b.forget('c', 'run');
    expect(t.b.stale('c')).toBe(true);
  });
});
