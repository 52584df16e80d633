import { describe, expect, it } from 'vitest';
import { JobTiming } from '../../../electron/services/jobs/job-timing';

/** A small deterministic random source, so the played sequence is the same on every machine. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Played {
  /** Mean time from a job's true end to the poll that found it done, over the measured jobs. */
  seenLateMs: number;
  /** Polls a job, on average, over the measured jobs. */
  pollsPerJob: number;
}

interface Live {
  id: string;
  kind: 'tts';
  connectionId: string;
  createdAt: number;
  request: { t: string };
  endsAt: number;
  activeSeenAt: number;
  unchanged: number;
  measured: boolean;
}

/**
 * Plays a steady stream of overlapping jobs (one every `everyMs`) through JobTiming as the poll scheduler
 * uses it: a job sleeps to its hint, then polls in the hint's growing steps, or on the processing
 * backoff when there is none. Once the rate binds, each poll waits up to 400 ms for its turn and sees
 * the job as it was when it left. Lengths come from the seed; only what the timing learns decides
 * when each job is polled.
 */
function play(jobs: number, measured: number, lengthOf: (i: number, r: () => number) => number, everyMs = 40): Played {
  const timing = new JobTiming();
  const random = seeded(7);
  const polls: { at: number; job: Live }[] = [];
  const schedule = (job: Live, at: number) => {
    let i = polls.length;
    while (i > 0 && polls[i - 1].at > at) i -= 1;
    polls.splice(i, 0, { at, job });
  };
  // The first 30 jobs find turns to spare (the run is starting); after that the rate binds.
  const scarceFrom = 30 * everyMs;
  const nextPoll = (job: Live, now: number) => {
    const hint = timing.hint(job, now, now >= scarceFrom);
    if (hint && hint.at > now) return hint.at;
    const step = hint?.stepMs
      ? hint.stepMs * (hint.growth ?? 1) ** Math.max(0, job.unchanged - 1)
      : 1_000 * 1.5 ** job.unchanged;
    return now + Math.min(step, 4_000);
  };
  let lateSum = 0;
  let pollCount = 0;
  for (let i = 0, now = 0; i < jobs || polls.length > 0;) {
    const createdAt = i * everyMs;
    if (i < jobs && (polls.length === 0 || createdAt <= polls[0].at)) {
      now = createdAt;
      const job: Live = {
        ...{ id: `j${i}`, kind: 'tts', connectionId: 'c', createdAt, request: { t: 'hi' } },
        ...{ endsAt: createdAt + lengthOf(i, random), activeSeenAt: createdAt, unchanged: 0 },
        measured: i >= jobs - measured,
      };
      timing.follow(job);
      schedule(job, nextPoll(job, now));
      i += 1;
      continue;
    }
    const { at, job } = polls.shift()!;
    const leftAt = at + (at >= scarceFrom ? random() * 400 : 0);
    now = leftAt + 20;
    if (job.measured) pollCount += 1;
    if (leftAt >= job.endsAt) {
      if (job.measured) lateSum += leftAt - job.endsAt;
      timing.finished({ ...job, finishedAt: now }, true);
      continue;
    }
    job.activeSeenAt = now;
    job.unchanged += 1;
    schedule(job, nextPoll(job, now));
  }
  return { seenLateMs: lateSum / measured, pollsPerJob: pollCount / measured };
}

describe('JobTiming while turns are scarce', () => {
  // Fails when a scarce wake is learnt from the jobs still running at it (only those give narrow
  // intervals, each one later than the wake by its turn's wait): the wake then creeps later through a
  // long run, and every row waits longer for jobs that ended long before.
  it('keeps waking near the end of nearly every job through a long run', () => {
    const uniform = (_: number, r: () => number) => 1_000 + r() * 500;
    const early = play(1_500, 1_000, uniform);
    const long = play(20_000, 1_000, uniform);
    // Ends are spread over 500 ms and each poll waits up to 400 ms for its turn: the wake that leaves
    // one job in twenty running sees a job about 350 ms after its end.
    for (const played of [early, long]) {
      expect(played.seenLateMs).toBeLessThan(450);
      expect(played.pollsPerJob).toBeLessThan(1.15);
    }
  });

  it('follows lengths that grow and then shrink again', () => {
    // The service's queue fills (lengths double) and drains again.
    const moving = (i: number, r: () => number) => (i > 4_000 && i < 8_000 ? 2_000 : 1_000) + r() * 500;
    const played = play(12_000, 1_000, moving);
    expect(played.seenLateMs).toBeLessThan(450);
    expect(played.pollsPerJob).toBeLessThan(1.15);
  });

  // Fails when each outcome moves the wake by a fixed share: the hundreds of jobs already asleep on the
  // old wake when lengths double all report late, and the wake overshoots many times over.
  it('with hundreds of jobs in flight, answers a step in lengths once, not once per job', () => {
    const step = (i: number, r: () => number) => (i > 6_000 ? 2_000 : 1_000) + r() * 500;
    const played = play(16_000, 2_000, step, 5);
    expect(played.seenLateMs).toBeLessThan(450);
    expect(played.pollsPerJob).toBeLessThan(1.15);
  });
});
