import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollScheduler, type PollOutcome } from '../../../electron/services/jobs/scheduler';

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

const clock = { now: () => Date.now() };

function recorder(answer: (id: string, n: number) => PollOutcome | Promise<PollOutcome>) {
  const polls: { id: string; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const poll = async (id: string) => {
    polls.push({ id, at: Date.now() });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 50));
    inFlight -= 1;
    return answer(id, polls.filter((p) => p.id === id).length);
  };
  return { polls, poll, max: () => maxInFlight };
}

describe('PollScheduler', () => {
  it('polls queued jobs less often than processing ones and backs off while nothing changes', async () => {
    const r = recorder((id) => ({ type: 'progress', state: id === 'q' ? 'queued' : 'processing', changed: false }));
    const s = new PollScheduler(r.poll, { clock, random: () => 0.5 });
    s.track('q', 'queued', Number.POSITIVE_INFINITY);
    s.track('p', 'processing', Number.POSITIVE_INFINITY);
    await vi.advanceTimersByTimeAsync(60_000);
    const q = r.polls.filter((p) => p.id === 'q').map((p) => p.at);
    const p = r.polls.filter((p) => p.id === 'p').map((p) => p.at);
    expect(p.length).toBeGreaterThan(q.length * 2);
    const gaps = p.slice(1).map((t, i) => t - p[i]);
    expect(gaps[1]).toBeGreaterThan(gaps[0]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4_000 + 50);
    s.stop();
  });

  it('keeps at most the configured number of polls in flight', async () => {
    const r = recorder(() => ({ type: 'progress', state: 'processing', changed: false }));
    const s = new PollScheduler(r.poll, { clock, random: () => 0, maxInFlight: 3 });
    for (let i = 0; i < 50; i += 1) s.track(`j${i}`, 'processing', Number.POSITIVE_INFINITY, 0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(r.max()).toBe(3);
    expect(new Set(r.polls.map((p) => p.id)).size).toBe(50);
    s.stop();
  });

  it('pauses every job after a 1005 for the Retry-After time', async () => {
    let limited = false;
    const r = recorder((id) => {
      if (id === 'a' && !limited) {
        limited = true;
        return { type: 'rate-limited', retryAfterMs: 20_000 };
      }
      return { type: 'progress', state: 'processing', changed: false };
    });
    const s = new PollScheduler(r.poll, { clock, random: () => 0, maxInFlight: 1 });
    s.track('a', 'processing', Number.POSITIVE_INFINITY, 0);
    s.track('b', 'processing', Number.POSITIVE_INFINITY, 10);
    await vi.advanceTimersByTimeAsync(19_000);
    // Only a's first poll ran before the pause; b waited although it was due.
    expect(r.polls.map((p) => p.id)).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(r.polls.map((p) => p.id).sort()).toEqual(['a', 'a', 'b']);
    s.stop();
  });

  // Fails when a hint's growth is ignored (mutation: return hint.stepMs alone in hinted()): a job later
  // than its kind's recent lengths would go on being polled at the pace meant for one about to end.
  it("widens a hint's steps while the job still runs, up to 2 s, and not for even-step hints", async () => {
    const gaps = async (hint: { at: number; stepMs: number; growth?: number }): Promise<number[]> => {
      const r = recorder(() => ({ type: 'progress', state: 'processing', changed: false }));
      const s = new PollScheduler(r.poll, {
        clock,
        random: () => 0.5,
        wakeHint: () => ({ ...hint, at: Math.max(hint.at, Date.now()) }),
      });
      s.track('a', 'processing', Number.POSITIVE_INFINITY, 0);
      await vi.advanceTimersByTimeAsync(60_000);
      s.stop();
      const at = r.polls.map((p) => p.at);
      return at.slice(1, 9).map((t, i) => t - at[i]);
    };
    // Each gap is the step plus the 50 ms the recorded poll takes to answer.
    expect(await gaps({ at: 0, stepMs: 400, growth: 1.5 })).toEqual([450, 650, 950, 1_400, 2_050, 2_050, 2_050, 2_050]);
    expect(await gaps({ at: 0, stepMs: 400 })).toEqual([450, 450, 450, 450, 450, 450, 450, 450]);
  });

  it("skips polls before a job's wake hint, then polls at the base rate", async () => {
    const r = recorder(() => ({ type: 'progress', state: 'processing', changed: false }));
    const s = new PollScheduler(r.poll, { clock, random: () => 0.5, wakeHint: () => ({ at: 20_000 }) });
    s.track('a', 'processing', Number.POSITIVE_INFINITY);
    await vi.advanceTimersByTimeAsync(19_900);
    expect(r.polls).toEqual([]);
    await vi.advanceTimersByTimeAsync(3_000);
    const at = r.polls.map((p) => p.at);
    expect(at[0]).toBe(20_000);
    expect(at[1] - at[0]).toBeLessThanOrEqual(1_600);
    s.stop();
  });

  // Fails when an overslept job waits a step after the rehint (mutation: no `overslept` in rehint).
  it('polls at once a job that slept past the wake time it has just been given, and brings others forward by a step', async () => {
    const r = recorder(() => ({ type: 'progress', state: 'processing', changed: false }));
    let hint: { at: number; stepMs?: number } = { at: 60_000 };
    const s = new PollScheduler(r.poll, { clock, random: () => 0.5, wakeHint: () => hint });
    s.track('asleep', 'processing', Number.POSITIVE_INFINITY);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(r.polls).toEqual([]);
    // Its kind's length was learnt: it should have woken at 19 s.
    hint = { at: 19_000, stepMs: 500 };
    s.rehint('asleep');
    await vi.advanceTimersByTimeAsync(0);
    expect(r.polls.map((p) => p.at)).toEqual([20_000]);
    // Awake and stepping now: a rehint keeps its step.
    await vi.advanceTimersByTimeAsync(60);
    s.rehint('asleep');
    await vi.advanceTimersByTimeAsync(600);
    expect(r.polls.map((p) => p.at)).toEqual([20_000, 20_550]);
    s.stop();
  });

  it('drops a job at its deadline and stops polling it', async () => {
    const r = recorder(() => ({ type: 'progress', state: 'processing', changed: false }));
    const expired: string[] = [];
    const s = new PollScheduler(r.poll, { clock, random: () => 0, onDeadline: (id) => expired.push(id) });
    s.track('a', 'processing', 5_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(expired).toEqual(['a']);
    expect(r.polls.every((p) => p.at < 5_000)).toBe(true);
    expect(s.size).toBe(0);
  });

  it('backs off after errors and forgets jobs that are done', async () => {
    const r = recorder((_id, n) => (n < 3 ? { type: 'error' } : { type: 'done' }));
    const s = new PollScheduler(r.poll, { clock, random: () => 0 });
    s.track('a', 'processing', Number.POSITIVE_INFINITY, 0);
    await vi.advanceTimersByTimeAsync(120_000);
    const at = r.polls.map((p) => p.at);
    expect(at).toHaveLength(3);
    expect(at[2] - at[1]).toBeGreaterThan(at[1] - at[0]);
    expect(s.size).toBe(0);
  });
});
