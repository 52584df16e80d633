import { describe, expect, it } from 'vitest';
import { MemoryLimiter } from '../../../electron/services/client/memory-limiter';

/** A seeded generator, so the simulated network's jitter is the same in every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * One sender going as fast as the pace lets it, against a service that refuses a request when `limit`
 * requests already reached it in the last second (as the sandbox does). Each request takes 2–20 ms on
 * its way, so the service sees requests a little bunched or spread compared with when they were sent.
 */
function simulate(limitAt: (t: number) => number, seconds: number) {
  let now = 0;
  const sleep = async (ms: number) => {
    now += ms;
  };
  const pace = new MemoryLimiter(() => now, sleep);
  const random = seeded(7);
  const arrived: number[] = [];
  const accepted: number[] = [];
  const refused: number[] = [];
  const run = async () => {
    while (now < seconds * 1000) {
      const turnAt = await pace.turn();
      const arrival = now + 2 + random() * 18;
      const recent = arrived.filter((t) => arrival - t < 1000);
      arrived.length = 0;
      arrived.push(...recent);
      now += 25; // the answer's way back and the sender's own work
      if (recent.length >= limitAt(arrival)) {
        refused.push(arrival);
        void pace.refused(turnAt);
      } else {
        arrived.push(arrival);
        accepted.push(arrival);
        pace.answered();
      }
    }
  };
  const between = (list: number[], from: number, to: number) =>
    list.filter((t) => t >= from * 1000 && t < to * 1000).length;
  return {
    run,
    pace,
    accepted: (from: number, to: number) => between(accepted, from, to) / (to - from),
    refused: (from: number, to: number) => between(refused, from, to),
  };
}

describe('pacing a rate-limited connection', () => {
  it('sends at once, without waiting, until the service refuses something', () => {
    const slept: number[] = [];
    const pace = new MemoryLimiter(
      () => 0,
      async (ms) => void slept.push(ms),
    );
    expect(pace.reserve()).toBe(0);
    expect(slept).toEqual([]);
    expect(pace.gap).toBe(0);
  });

  it('says turns are scarce for a window after one waited behind others, and not while turns are free', async () => {
    let now = 0;
    const limiter = new MemoryLimiter(
      () => now,
      async (ms) => void (now += ms),
    );
    // Not pacing: every request goes at once.
    for (let i = 0; i < 20; i++) await limiter.turn();
    expect(limiter.scarce()).toBe(false);
    // The burst refused: the next request waits for it to leave the service's window.
    await limiter.refused(0);
    await limiter.turn();
    expect(limiter.scarce()).toBe(true);
    // Later than the pace's gap (2 s at the half a request a second learnt), a request does not wait.
    now += 3_000;
    await limiter.turn();
    expect(limiter.scarce()).toBe(false);
  });

  it('learns the limit from the first refusal and settles just under it, with almost no refusals', async () => {
    const sim = simulate(() => 20, 120);
    await sim.run();
    // The first refusal ends the opening burst; probes above the limit, ever rarer, cost one each.
    expect(sim.refused(0, 120)).toBeLessThanOrEqual(6);
    expect(sim.accepted(5, 120)).toBeGreaterThanOrEqual(19);
    expect(sim.pace.perWindow).toBeLessThanOrEqual(20.5);
  });

  it('after the opening burst, waits for it to leave the service window instead of being refused again', async () => {
    const sim = simulate(() => 20, 3);
    await sim.run();
    expect(sim.refused(0, 3)).toBe(1);
  });

  it('follows a limit that drops, within a few refusals', async () => {
    const sim = simulate((t) => (t < 30_000 ? 20 : 10), 90);
    await sim.run();
    // The second after the drop is refused half, until its window shows the new count; then quiet.
    expect(sim.refused(30, 33)).toBeLessThanOrEqual(15);
    expect(sim.refused(33, 90)).toBeLessThanOrEqual(4);
    expect(sim.accepted(40, 90)).toBeGreaterThanOrEqual(9.2);
    expect(sim.accepted(40, 90)).toBeLessThanOrEqual(10);
  });

  it('finds a limit that rises, by probing slowly above the one it learnt', async () => {
    const sim = simulate((t) => (t < 10_000 ? 10 : 20), 90);
    await sim.run();
    expect(sim.accepted(60, 90)).toBeGreaterThanOrEqual(19);
    expect(sim.refused(10, 90)).toBeLessThanOrEqual(6);
  });

  it('lets a lone refusal just under the limit pass, and slows for refusals close together', () => {
    let now = 0;
    const pace = new MemoryLimiter(
      () => now,
      async () => {},
    );
    const send = (n: number) =>
      Array.from({ length: n }, () => {
        now += 10;
        return pace.reserve();
      });
    send(20);
    void pace.refused(send(1)[0]);
    expect(pace.perWindow).toBe(19.5);
    now += 3_000;
    for (const _ of send(60)) pace.answered();
    // Bunched on the way: refused with 19 others in its window. Alone, it changes nothing.
    void pace.refused(send(1)[0]);
    expect(pace.perWindow).toBe(19.5);
    now += 2_000;
    void pace.refused(send(1)[0]);
    expect(pace.perWindow).toBeCloseTo(17.55, 5);
  });

  it('ignores refusals of requests sent at the old pace', () => {
    let now = 0;
    const pace = new MemoryLimiter(
      () => now,
      async () => {},
    );
    const turns = Array.from({ length: 25 }, () => {
      now += 10;
      return pace.reserve();
    });
    for (let i = 0; i < 20; i += 1) pace.answered();
    now += 5;
    void pace.refused(turns[20]);
    const learnt = pace.perWindow;
    // Requests 22..25 were sent before the pace existed: refused too, they change nothing.
    for (const at of turns.slice(21)) void pace.refused(at);
    expect(learnt).toBe(19.5);
    expect(pace.perWindow).toBe(learnt);
  });
});
