import { describe, expect, it } from 'vitest';
import { JobTiming } from '../../../electron/services/jobs/job-timing';

const job = (
  id: string,
  createdAt: number,
  over: Partial<{ kind: 'tts' | 'lipsync'; connectionId: string; text: string }> = {},
) => ({
  id,
  kind: over.kind ?? ('tts' as const),
  connectionId: over.connectionId ?? 'sandbox',
  createdAt,
  request: { input_text: over.text ?? 'Hello there', voice_id: 'v1' },
});
const ended = (j: ReturnType<typeof job>, activeSeenAt: number, finishedAt: number) => ({
  ...j,
  activeSeenAt,
  finishedAt,
});

describe('JobTiming', () => {
  it('predicts from jobs of the same kind, size and connection that ended here', () => {
    const timing = new JobTiming();
    expect(timing.hint(job('x', 1_000), 1_000)).toBeUndefined();
    timing.finished(ended(job('a', 0), 9_500, 10_000), true);
    timing.finished(ended(job('b', 0), 9_800, 10_200), true);
    // The earliest end seen (last seen running), then steps half as wide as the spread of lengths.
    expect(timing.hint(job('x', 1_000), 1_000)).toEqual({ at: 1_000 + 9_500, stepMs: 350, growth: 1.5 });
    expect(timing.hint(job('y', 1_000, { kind: 'lipsync' }), 1_000)).toBeUndefined();
    expect(timing.hint(job('z', 1_000, { connectionId: 'other' }), 1_000)).toBeUndefined();
    expect(timing.hint(job('w', 1_000, { text: 'A much longer script '.repeat(40) }), 1_000)).toBeUndefined();
  });

  it('counts a job from when its create left, when known: a create that waited its turn is not predicted to end sooner', () => {
    const timing = new JobTiming();
    // Both took 2 s at the service; the first create waited 400 ms for the connection's pace first.
    timing.finished({ ...ended(job('a', 0), 2_350, 2_450), sentAt: 400 }, true);
    timing.finished({ ...ended(job('b', 0), 1_950, 2_050), sentAt: 0 }, true);
    const waited = { ...job('x', 10_000), sentAt: 10_300 };
    expect(timing.hint(waited, 10_300)).toEqual({ at: 10_300 + 1_950, stepMs: 250, growth: 1.5 });
  });

  it('wakes a job when nearly all of its kind ended while turns are scarce, and at its earliest end while they are not', () => {
    const timing = new JobTiming();
    // Twenty lengths, 0.1 s to 2 s: the 10th percentile of the earliest ends is 0.25 s, the 95th of the ends 2 s.
    for (let i = 1; i <= 20; i++) timing.finished(ended(job(`a${i}`, 0), i * 100 - 50, i * 100), true);
    // Turns to spare: seen soon after it ends. None: a poll that finds it running takes a create's turn.
    expect(timing.hint(job('x', 10_000), 10_000, false)?.at).toBe(10_250);
    expect(timing.hint(job('x', 10_000), 10_000, true)?.at).toBe(12_000);
    // Past that time, it is polled in the same steps either way.
    expect(timing.hint(job('x', 10_000), 12_100, true)).toEqual(timing.hint(job('x', 10_000), 12_100, false));
  });

  it('does not learn from ends it did not observe, and hands slow jobs back to the backoff', () => {
    const timing = new JobTiming();
    timing.finished(ended(job('a', 0), 9_000, 10_000), false);
    expect(timing.hint(job('x', 0), 0)).toBeUndefined();
    timing.finished(ended(job('c', 0), 9_000, 10_000), true);
    expect(timing.hint(job('x', 0), 9_500)).toEqual({ at: 9_500, stepMs: 500, growth: 1.5 });
    expect(timing.hint(job('x', 0), 60_000)).toBeUndefined();
  });

  it('lets a big cohort sleep behind two scouts until they teach it, then wakes it at the learnt time', () => {
    const timing = new JobTiming({ coldSleepMs: 60_000 });
    const jobs = Array.from({ length: 6 }, (_, i) => job(`j${i}`, i * 10));
    for (const j of jobs) timing.follow(j);
    expect(timing.hint(jobs[0], 5_000)).toEqual({ at: 5_000, stepMs: 500 });
    expect(timing.hint(jobs[1], 5_000)?.stepMs).toBe(500);
    expect(timing.hint(jobs[2], 5_000)).toEqual({ at: 65_000 });
    // The first scout's end becomes everyone's prediction; the others' hints are to be reconsidered.
    expect(timing.finished(ended(jobs[0], 19_900, 20_400), true)).toEqual(['j1', 'j2', 'j3', 'j4', 'j5']);
    expect(timing.hint(jobs[5], 10_000)).toEqual({ at: 50 + 19_900, stepMs: 250, growth: 1.5 });
    // j2 took the place of the scout that left.
    expect(timing.hint(jobs[2], 10_000)?.at).toBe(10_000);
  });

  // Fails when every later end rehints the whole cohort (mutation: compare `latest` with the one before).
  it('while turns are scarce, polls no scout of a known kind ahead of the prediction', () => {
    const timing = new JobTiming();
    timing.finished(ended(job('a', 0), 1_000, 1_100), true);
    timing.finished(ended(job('b', 0), 2_900, 3_000), true);
    const jobs = Array.from({ length: 6 }, (_, i) => job(`j${i}`, 10_000 + i));
    for (const j of jobs) timing.follow(j);
    expect(timing.hint(jobs[0], 10_500, false)).toEqual({ at: 10_500, stepMs: 500 });
    expect(timing.hint(jobs[0], 10_500, true)?.at).toBe(13_000);
  });

  it('in a draining queue, looks at the cohort again only once its usual length has grown by a tenth', () => {
    const timing = new JobTiming();
    const jobs = Array.from({ length: 12 }, (_, i) => job(`j${i}`, 0));
    for (const j of jobs) timing.follow(j);
    expect(timing.finished(ended(jobs[0], 19_900, 20_000), true)).toHaveLength(11);
    // Each job ends a little later than the one before, as a queue works through a burst in order.
    // (j1 and j2 are the scouts now; these are not.)
    const rehinted = [6, 7, 8, 9, 10, 11].map(
      (i) => timing.finished(ended(jobs[i], 19_500 + i * 400, 19_600 + i * 400), true).length,
    );
    expect(rehinted.filter((n) => n > 0).length).toBeLessThanOrEqual(2);
    expect(rehinted.some((n) => n > 0)).toBe(true);
  });

  it('keeps a small cohort on the ordinary backoff', () => {
    const timing = new JobTiming();
    const jobs = Array.from({ length: 3 }, (_, i) => job(`j${i}`, 0));
    for (const j of jobs) timing.follow(j);
    expect(jobs.map((j) => timing.hint(j, 1_000))).toEqual([undefined, undefined, undefined]);
  });

  it('wakes earlier as soon as the newest jobs get faster', () => {
    const timing = new JobTiming();
    for (let i = 0; i < 20; i += 1) timing.finished(ended(job(`s${i}`, 0), 30_000, 30_500), true);
    expect(timing.hint(job('x', 0), 0)?.at).toBe(30_000);
    timing.finished(ended(job('fast', 0), 12_000, 12_400), true);
    expect(timing.hint(job('x', 0), 0)?.at).toBe(12_000);
  });
});

describe('JobTiming samples', () => {
  it('in a big cohort, learns nothing from a job first polled long after it had ended', () => {
    const timing = new JobTiming();
    const jobs = Array.from({ length: 6 }, (_, i) => job(`j${i}`, 0));
    for (const j of jobs) timing.follow(j);
    timing.finished(ended(jobs[0], 19_800, 20_000), true);
    timing.finished(ended(jobs[1], 19_700, 20_100), true);
    // Created at 0, first seen done at 20 s: it may have ended at any time, so it must not drag the hint to 0.
    timing.finished(ended(jobs[5], 0, 20_000), true);
    expect(timing.hint(job('x', 0), 0)?.at).toBe(19_700);
  });

  it('a lone job that slept through its end makes the next one wake earlier', () => {
    const timing = new JobTiming();
    timing.finished(ended(job('a', 0), 19_800, 20_000), true);
    expect(timing.hint(job('b', 0), 0)?.at).toBe(19_800);
    // Woken at 19.8 s and found done: it ended sooner, by how much is unknown.
    timing.finished(ended(job('b', 0), 0, 19_800), true);
    expect(timing.hint(job('x', 0), 0)?.at).toBe(9_900);
    // A job that never slept on a prediction teaches nothing from a wide interval.
    timing.finished(ended(job('c', 0), 0, 4_000), true);
    expect(timing.hint(job('x', 0), 0)?.at).toBe(9_900);
  });
});
