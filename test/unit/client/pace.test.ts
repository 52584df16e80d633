import { describe, expect, it } from 'vitest';
import { RequestPace } from '../../../electron/services/client/pace';

function paced() {
  let now = 0;
  const waits: number[] = [];
  const pace = new RequestPace(() => now);
  const sleep = async (ms: number) => {
    waits.push(ms);
    now += ms;
  };
  return { pace, waits, sleep, tick: (ms: number) => (now += ms) };
}

describe('pacing a rate-limited connection', () => {
  it('sends at once until the service refuses, then spaces request starts', async () => {
    const t = paced();
    expect(t.pace.take(t.sleep)).toBeNull();
    t.pace.refused();
    expect(t.pace.gap).toBe(50);
    for (let i = 0; i < 4; i += 1) await t.pace.take(t.sleep);
    // The first goes now, each next one a gap later.
    expect(t.waits).toEqual([50, 50, 50]);
  });

  it('counts refusals of requests sent together once, and doubles for a later one', () => {
    const t = paced();
    t.pace.refused();
    t.pace.refused();
    t.pace.refused();
    expect(t.pace.gap).toBe(50);
    t.tick(300);
    t.pace.refused();
    expect(t.pace.gap).toBe(100);
  });

  it('returns to full speed slowly after the refusals stop', () => {
    const t = paced();
    t.pace.refused();
    for (let i = 0; i < 40; i += 1) t.pace.succeeded();
    expect(t.pace.gap).toBeGreaterThan(20);
    for (let i = 0; i < 400; i += 1) t.pace.succeeded();
    expect(t.pace.gap).toBe(0);
    expect(t.pace.take(t.sleep)).toBeNull();
  });
});
