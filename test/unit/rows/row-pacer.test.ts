import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RowPacer } from '../../../electron/services/rows/rate/row-pacer';
import { TURN_LATENESS_MS } from '../../../electron/services/rows/rate/shared-turns';
import { mostInWindow } from './windows';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the row pacer', () => {
  it('gives turns a gap apart at its rate, rows under way first', async () => {
    const pacer = new RowPacer({ initialRate: 6 });
    const given: { at: number; who: string }[] = [];
    for (let i = 0; i < 10; i += 1) void pacer.turn(true).then(() => given.push({ at: Date.now(), who: `new${i}` }));
    for (let i = 0; i < 5; i += 1) void pacer.turn(false).then(() => given.push({ at: Date.now(), who: `next${i}` }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(given).toHaveLength(15);
    expect(mostInWindow(given.map((g) => g.at))).toBeLessThanOrEqual(6);
    // The first turn was given at once; the rows under way took the next five.
    expect(given.slice(0, 6).map((g) => g.who)).toEqual(['new0', 'next0', 'next1', 'next2', 'next3', 'next4']);
  });

  it('lets a new row start only when no create waits for a turn, and says so when one may', async () => {
    const pacer = new RowPacer({ initialRate: 4 });
    let rooms = 0;
    pacer.onRoom(() => (rooms += 1));
    expect(pacer.free()).toBe(true);
    pacer.starts();
    expect(pacer.free()).toBe(false);
    const turn = pacer.turn(true);
    await turn;
    expect([pacer.free(), rooms]).toEqual([true, 1]);
    void pacer.turn(false);
    expect(pacer.free()).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect([pacer.free(), rooms]).toEqual([true, 2]);
  });

  it('learns the rate where it is not known: halved at each refusal, raised a little by each accepted create', () => {
    const pacer = new RowPacer({ initialRate: 8 });
    pacer.refused();
    expect(pacer.createsPerSecond()).toBe(4);
    for (let i = 0; i < 4; i += 1) pacer.accepted();
    expect(pacer.createsPerSecond()).toBeGreaterThan(4.9);
    expect(pacer.createsPerSecond()).toBeLessThan(5);
  });

  it('has a create still unsent past the room after its turn take a new one, late then measured from it', async () => {
    // A turn every 1.1 s.
    const pacer = new RowPacer({ initialRate: 0.9 });
    const turnAt = await pacer.turn(false);
    const pace = pacer.paceFrom(turnAt, async () => true);
    await vi.advanceTimersByTimeAsync(TURN_LATENESS_MS);
    expect(pace.late()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(pace.late()).toBe(true);
    // The new turn is the next one free, not now: one was given a moment ago.
    let done = false;
    void pace.wait().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(500);
    expect(done).toBe(false);
    while (!done) await vi.advanceTimersByTimeAsync(10);
    expect(Date.now()).toBeGreaterThan(1_000);
    expect(pace.late()).toBe(false);
  });
});
