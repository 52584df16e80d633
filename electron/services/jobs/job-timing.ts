import { stableStringify } from './stable-json';
import type { EndedJob as Ended, PollingStrategy, TimedJob as Timed, WakeHint } from './polling-strategy';

/** Where a job's length is counted from: when its create left, when known (a create may wait its turn first). */
function startOf(job: Timed): number {
  return job.sentAt ?? job.createdAt;
}

/**
 * A job still running after a few steps is later than its kind's recent lengths (a queue working
 * through a burst in order makes each later job wait longer), so its steps widen rather than polling a
 * job that is seconds away at the pace meant for one about to end.
 */
const LATE_STEP_GROWTH = 1.5;

/** A finished job's length, known only between the last time it was seen running and the first time seen done. */
interface Sample {
  lo: number;
  hi: number;
}

interface Prediction {
  /**
   * After creation: the earliest a job is likely to end, the latest it usually does, the time by which
   * nearly every one has (the 95th percentile), and the poll step between.
   */
  earliest: number;
  latest: number;
  nearlyAll: number;
  stepMs: number;
}

export interface JobTimingOptions {
  /** Samples kept per kind of job. */
  keep?: number;
  /** Samples needed before predicting. */
  minSamples?: number;
  /** Jobs of one kind that are polled closely while nothing is known, so the rest can sleep. */
  scouts?: number;
  /** A cohort needs at least this many active jobs before its other members sleep behind scouts. */
  cohortSize?: number;
  /** How long a job sleeps while its scouts learn. */
  coldSleepMs?: number;
}

/**
 * Whether a new prediction can bring a poll forward: a rehint never puts one off, so a prediction that
 * only moved later changes nothing and its cohort need not be looked at again. A later `latest` only
 * matters to jobs past it (back from the ordinary backoff to the prediction's steps), so it counts once
 * it has grown by a tenth since the cohort was last looked at: in a queue draining a burst, where every
 * job ends a little later than the one before, looking at the whole cohort at every end cost more CPU
 * than all the polls.
 */
const LATEST_GROWTH_WORTH_A_REHINT = 1.1;

/**
 * While turns are scarce a job is polled once, when nearly every job of its kind has ended: the share
 * of jobs still running at that poll is steered towards this (each costs a second poll, a create's turn).
 */
const SCARCE_LATE_SHARE = 0.05;
/**
 * How far a whole cohort's outcomes may move the scarce wake, in log terms: each outcome moves it by
 * this over the cohort's size, since the jobs already asleep on the old wake report before any woken
 * on the new one can (a step in lengths must not be answered once per job in flight).
 */
const SCARCE_WAKE_GAIN = 1;

function mayComeSooner(
  before: Prediction | undefined,
  after: Prediction | undefined,
  latestAtLastRehint: number,
): boolean {
  if (!after) return false;
  if (!before) return true;
  return (
    after.earliest < before.earliest ||
    after.stepMs < before.stepMs ||
    after.latest > latestAtLastRehint * LATEST_GROWTH_WORTH_A_REHINT
  );
}

/**
 * Learns how long jobs take on each connection, by kind and rough size (the request's length in powers
 * of two, since a longer script or more scenes take longer), and turns it into wake times:
 * - jobs with a prediction sleep until the earliest they are likely to end, then poll in steps as wide
 *   as the spread of recent lengths, so most are seen within one step with one or two requests; while
 *   the account's rate binds (turns are scarce), until nearly all of them have ended, so a job is seen
 *   with one;
 * - while a kind is unknown and many such jobs run at once, the oldest few ("scouts") are polled
 *   closely and the rest sleep; the scouts' first results give everyone a prediction.
 * Lengths are kept as intervals (last seen running .. first seen done), so the prediction never
 * assumes a job ended later than it may have; only narrow intervals are kept, since a job polled
 * first long after it ended tells nothing about when it ended.
 */
export class JobTiming implements PollingStrategy {
  private readonly samples = new Map<string, Sample[]>();
  private readonly predictions = new Map<string, Prediction | null>();
  /** Jobs put to sleep on a prediction with no scouts watching their kind. */
  private readonly sleptAlone = new Set<string>();
  private readonly keys = new Map<string, string>();
  private readonly cohorts = new Map<string, Set<string>>();
  /** Each kind's `latest` when its cohort was last rehinted (see mayComeSooner). */
  private readonly latestAtRehint = new Map<string, number>();
  /**
   * Each kind's wake while turns are scarce, after its start. Not a percentile of the samples: at that
   * wake only the jobs still running give narrow intervals, so samples from it would only ever say
   * "later" (and each carries its poll's wait for a turn). It is steered by what the one poll found.
   */
  private readonly scarceWake = new Map<string, number>();
  /** Jobs asleep until a scarce wake, with the time they were to wake at. */
  private readonly wokeScarce = new Map<string, number>();
  private readonly keep: number;
  private readonly minSamples: number;
  private readonly scouts: number;
  private readonly cohortSize: number;
  private readonly coldSleepMs: number;

  constructor(options: JobTimingOptions = {}) {
    this.keep = options.keep ?? 50;
    this.minSamples = options.minSamples ?? 1;
    this.scouts = options.scouts ?? 2;
    this.cohortSize = options.cohortSize ?? 4;
    this.coldSleepMs = options.coldSleepMs ?? 60_000;
  }

  /** A job starts being followed; returns the jobs whose hint changed (all of a cohort that just became big). */
  follow(job: Timed): string[] {
    const key = this.keyOf(job);
    let cohort = this.cohorts.get(key);
    if (!cohort) this.cohorts.set(key, (cohort = new Set()));
    cohort.add(job.id);
    return cohort.size === this.cohortSize ? [...cohort].filter((id) => id !== job.id) : [];
  }

  /**
   * The job is no longer followed. When its end was observed here (`learn`), its length is learnt,
   * bounded by when the service last said it was unfinished and when it was first seen done.
   * Returns the jobs whose wake hint changed: the rest of its cohort, when the prediction moved or a
   * scout left.
   */
  finished(job: Ended, learn: boolean): string[] {
    const key = this.keyOf(job);
    this.keys.delete(job.id);
    const cohort = this.cohorts.get(key);
    const wasScout = cohort !== undefined && cohort.size >= this.cohortSize && this.isScout(cohort, job.id);
    const slept = this.sleptAlone.delete(job.id);
    cohort?.delete(job.id);
    if (cohort?.size === 0) this.cohorts.delete(key);
    const before = this.predict(key);
    const wake = this.wokeScarce.get(job.id);
    this.wokeScarce.delete(job.id);
    if (learn && job.finishedAt !== null && job.activeSeenAt != null) {
      if (wake === undefined) this.learn(key, job.activeSeenAt - startOf(job), job.finishedAt - startOf(job), slept);
      else this.steerScarceWake(key, job.activeSeenAt >= wake, (cohort?.size ?? 0) + 1);
    }
    const after = this.predict(key);
    if (!cohort || !(wasScout || mayComeSooner(before, after, this.latestAtRehint.get(key) ?? 0))) return [];
    if (after) this.latestAtRehint.set(key, after.latest);
    return [...cohort];
  }

  hint(job: Timed, now: number, turnsScarce = false): WakeHint | undefined {
    const key = this.keys.get(job.id) ?? this.keyOf(job);
    const cohort = this.cohorts.get(key);
    const predicted = this.predict(key);
    // Scouts learn a kind's length for the rest; while turns are scarce, a known kind is left to its
    // prediction, as a scout's close polls take the turns creates need.
    const scouting = !(turnsScarce && predicted);
    if (scouting && cohort && cohort.size >= this.cohortSize && this.isScout(cohort, job.id)) {
      // Close enough that the learnt length is within a twentieth of the truth.
      const age = Math.max(0, now - startOf(job));
      return { at: now, stepMs: Math.min(5_000, Math.max(500, age / 20)) };
    }
    if (predicted) {
      // With turns to spare a job is seen soon after it ends. With none, a poll that finds it unfinished
      // takes a turn a create needed: it waits until nearly every job of its kind has ended.
      const wakeAt = startOf(job) + (turnsScarce ? this.scarceWakeOf(key, predicted) : predicted.earliest);
      const lateAt = startOf(job) + predicted.latest + Math.max(2 * predicted.stepMs, predicted.latest / 4);
      if (now < wakeAt) {
        if (turnsScarce) this.wokeScarce.set(job.id, wakeAt);
        else this.wokeScarce.delete(job.id);
        if (!cohort || cohort.size < this.cohortSize) this.sleptAlone.add(job.id);
        return { at: wakeAt, stepMs: predicted.stepMs, growth: LATE_STEP_GROWTH };
      }
      // Well past the usual end, the ordinary backoff takes over: this job is slower than its kind.
      return now < lateAt ? { at: now, stepMs: predicted.stepMs, growth: LATE_STEP_GROWTH } : undefined;
    }
    if (!cohort || cohort.size < this.cohortSize) return undefined;
    return { at: now + this.coldSleepMs };
  }

  /** How long jobs like this one usually take, once any ended here (the fallback poll of a callback waits past it). */
  expected(job: Timed): { latest: number } | undefined {
    const predicted = this.predict(this.keys.get(job.id) ?? this.keyOf(job));
    return predicted && { latest: predicted.latest };
  }

  private scarceWakeOf(key: string, predicted: Prediction): number {
    const wake = this.scarceWake.get(key) ?? predicted.nearlyAll;
    this.scarceWake.set(key, wake);
    return wake;
  }

  /**
   * One job's poll at the scarce wake found it still running (late) or done. Late ones push the wake
   * later and done ones earlier, weighted so it rests where SCARCE_LATE_SHARE of jobs are late: a
   * quantile followed from outcomes alone, which also comes down when the service gets faster again.
   */
  private steerScarceWake(key: string, late: boolean, cohortSize: number): void {
    const wake = this.scarceWake.get(key);
    if (wake === undefined) return;
    const push = late ? 1 - SCARCE_LATE_SHARE : -SCARCE_LATE_SHARE;
    this.scarceWake.set(key, wake * Math.exp((SCARCE_WAKE_GAIN * push) / cohortSize));
  }

  private isScout(cohort: Set<string>, id: string): boolean {
    let rank = 0;
    for (const member of cohort) {
      if (member === id) return true;
      if (++rank >= this.scouts) return false;
    }
    return false;
  }

  private learn(key: string, lo: number, hi: number, sleptAlone: boolean): void {
    let sample: Sample | null = { lo, hi };
    // A wide interval (first polled long after it ended) says little about when it ended. A lone job
    // that slept through its end still says "sooner than expected": assume no sooner than half, so
    // the next such job wakes early enough to find out. In a big cohort the scouts find out instead.
    if (hi - lo > Math.max(1_000, 0.2 * hi)) sample = sleptAlone ? { lo: Math.max(lo, hi / 2), hi } : null;
    if (!sample) return;
    const list = this.samples.get(key) ?? [];
    list.push(sample);
    if (list.length > this.keep) list.shift();
    this.samples.set(key, list);
    this.predictions.delete(key);
  }

  private predict(key: string): Prediction | undefined {
    if (this.predictions.has(key)) return this.predictions.get(key) ?? undefined;
    const list = this.samples.get(key);
    let prediction: Prediction | null = null;
    if (list && list.length >= this.minSamples) {
      const los = list.map((s) => s.lo).sort((a, b) => a - b);
      const his = list.map((s) => s.hi).sort((a, b) => a - b);
      // The 10th percentile, or lower when the newest jobs got faster.
      const recent = list.slice(-3).map((s) => s.lo);
      const earliest = Math.min(los[Math.floor(los.length * 0.1)], ...recent);
      const latest = his[Math.min(his.length - 1, Math.floor(his.length * 0.9))];
      const nearlyAll = his[Math.min(his.length - 1, Math.floor(his.length * 0.95))];
      const stepMs = Math.min(2_000, Math.max(250, (latest - earliest) / 2));
      prediction = { earliest, latest, nearlyAll, stepMs };
    }
    this.predictions.set(key, prediction);
    return prediction ?? undefined;
  }

  private keyOf(job: Timed): string {
    const cached = this.keys.get(job.id);
    if (cached) return cached;
    const size = Math.round(Math.log2(1 + stableStringify(job.request).length));
    const key = `${job.connectionId}|${job.kind}|${size}`;
    this.keys.set(job.id, key);
    return key;
  }
}
