// How many rows may be under way on a connection: a few minutes of the rows it has been finishing, from
// the first rows' ends on (not a minute later), and back to the floor once nothing ends any more.
import { describe, expect, it } from 'vitest';
import { RowFlight } from '../../../electron/services/rows/engine/row-flight';

describe('the rows under way on a connection', () => {
  it('follow the pace rows end at from the first ends, over three minutes of it', () => {
    let now = 0;
    const flight = new RowFlight({ clock: { now: () => now } });
    expect(flight.bound('c')).toBe(24);
    // Twenty rows end in the first twenty seconds: a row a second, sixty a minute.
    for (let i = 1; i <= 20; i += 1) {
      now = i * 1_000;
      flight.rowEnded('c');
    }
    expect(flight.perMinute('c')).toBeCloseTo(60, 0);
    expect(flight.bound('c')).toBe(180);
    // Another connection is bounded by its own rows.
    expect(flight.bound('other')).toBe(24);
  });

  it('go back to the floor once no row has ended for the window', () => {
    let now = 0;
    const flight = new RowFlight({ clock: { now: () => now } });
    for (let i = 1; i <= 100; i += 1) {
      now = i * 500;
      flight.rowEnded('c');
    }
    expect(flight.bound('c')).toBeGreaterThan(24);
    now += 5 * 60_000 + 1;
    expect(flight.bound('c')).toBe(24);
  });
});
