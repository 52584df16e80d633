// The row pacer holds no rate (the transport's limiter does): it keeps rows under way before new ones,
// and says when a new row may start.
import { describe, expect, it } from 'vitest';
import { NEW_ROWS_IN_LINE, RowPacer } from '../../../electron/services/rows/rate/row-pacer';

/** Lets every promise settled so far run its callbacks. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the row pacer', () => {
  it("holds a new row's first create while a create of a row under way has not left, and lets it go once it has", async () => {
    const pacer = new RowPacer();
    const order: string[] = [];
    const underWay = await pacer.turn(false);
    void pacer.turn(true).then(() => order.push('new'));
    const next = await pacer.turn(false);
    order.push('under way');
    await settled();
    expect(order).toEqual(['under way']);
    underWay();
    await settled();
    expect(order).toEqual(['under way']);
    next();
    await settled();
    expect(order).toEqual(['under way', 'new']);
  });

  it('lets a new row start while fewer than NEW_ROWS_IN_LINE new rows are sending their first create, and says so when one may', async () => {
    const pacer = new RowPacer();
    let rooms = 0;
    pacer.onRoom(() => (rooms += 1));
    // A create of a row under way on its way does not keep new rows from starting (their creates wait for it).
    const underWay = await pacer.turn(false);
    expect(pacer.free()).toBe(true);
    underWay();
    const firsts = [];
    for (let i = 0; i < NEW_ROWS_IN_LINE; i += 1) firsts.push(await pacer.turn(true));
    expect(pacer.free()).toBe(false);
    firsts[0]();
    // Said once: a create that leaves twice (at its turn, then at its answer) counts once.
    firsts[0]();
    expect(pacer.free()).toBe(true);
    const roomsSaid = rooms;
    await pacer.turn(true);
    expect(pacer.free()).toBe(false);
    firsts[1]();
    expect([pacer.free(), rooms]).toEqual([true, roomsSaid + 1]);
  });

  it('is not free from a row starting until its first create asks, or its step ends without one', async () => {
    const pacer = new RowPacer();
    for (let i = 0; i < NEW_ROWS_IN_LINE; i += 1) pacer.starts();
    expect(pacer.free()).toBe(false);
    pacer.started();
    expect(pacer.free()).toBe(true);
    pacer.starts();
    const left = await pacer.turn(true);
    expect(pacer.free()).toBe(false);
    left();
    expect(pacer.free()).toBe(true);
  });

  it('lets every waiting create go when stopped', async () => {
    const pacer = new RowPacer();
    await pacer.turn(false);
    const waiting = pacer.turn(true);
    pacer.stop();
    await expect(waiting).resolves.toBeTypeOf('function');
  });
});
