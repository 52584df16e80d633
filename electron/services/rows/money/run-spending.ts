import type { JobRecord, JobSubmission } from '../../../common/bridge/jobs';
import { runOf } from '../../jobs/job-scope';
import { ROW_ENDED, type RowBase, type RowJobs, type RunBase } from '../engine/row-kind';
import { RunTally, stepKey, type CostedJob, type CostFacts } from './run-tally';

/** Runs whose tallies are kept between creates; a run past this many others is counted afresh when asked again. */
const TALLIES_KEPT = 16;

/**
 * A run's jobs as the spending reads them: `list` them (by `kind/runId`), whether a record is one of
 * them, and whether the run is running (a tally of one that is not is let go of: it is counted again if
 * the run goes on, and a finished run of 300,000 jobs must not stay counted for the session).
 */
export interface RunJobs {
  list(key: string): readonly CostedJob[];
  has(key: string, job: JobRecord): boolean;
  running(key: string): boolean;
}

/**
 * What each run has cost so far and what its creates on their way will, for the run's cap ("stop after
 * N credits") and for what a paused run's rows left would cost. A job counts at its charge, else at
 * its published figure, else at the price it was sent at; a create the service refused costs nothing.
 * A create on its way counts at its price (and its record not yet), reserved in the same step as the
 * check, so rows sent side by side cannot pass the cap together. A run's jobs are counted once and kept
 * counted as the engine changes them (RunTally), so a check does not grow with the run; with an engine
 * that says nothing of its changes, they are counted afresh at each check.
 */
export class RunSpending {
  /** Each run's creates on their way: their price, by the step they make. */
  private readonly inFlight = new Map<string, Map<string, number>>();
  /** The price each run's job was sent at, for jobs the ledger has no figure for. */
  private readonly sentAt = new Map<string, number>();
  /** Who waits for one of a run's creates to be answered. */
  private readonly waiters = new Map<string, (() => void)[]>();
  /** Runs' tallies kept up to date by the engine's changes, by `kind/runId`, the latest asked last. */
  private readonly tallies = new Map<string, RunTally>();
  private readonly kept: boolean;

  constructor(
    private readonly jobs: RowJobs,
    private readonly runJobs: RunJobs,
  ) {
    this.kept = typeof jobs.subscribeRecords === 'function';
    jobs.subscribeRecords?.((record) => this.changed(record));
  }

  /** What one job of a run counts for, its sending left aside (RunTally leaves out the steps on their way). */
  cost(job: CostFacts): number {
    if (job.phase === 'submitting' || (job.phase === 'failed' && job.remoteId === null)) return 0;
    return job.chargedCredits ?? job.costEstimate?.credits ?? this.sentAt.get(job.id) ?? 0;
  }

  /** What the run's jobs have cost so far. */
  spent(key: string): number {
    return this.tally(key).spent();
  }

  /**
   * A create's expected price: the connection's (published, or its recent charges), else this run's own
   * of the kind; null when nobody can say it yet (the first of its kind).
   */
  async price(submission: JobSubmission, key: string): Promise<number | null> {
    const expected = await this.jobs.expectedCredits?.(submission).catch(() => null);
    if (expected !== null && expected !== undefined) return expected;
    return this.tally(key).average(submission.kind);
  }

  /** Whether one of the run's creates is on its way. */
  sending(key: string): boolean {
    return (this.inFlight.get(key)?.size ?? 0) > 0;
  }

  /** Resolves once the run's next create on its way is answered. */
  settled(key: string): Promise<void> {
    return new Promise((resolve) => this.waiters.set(key, [...(this.waiters.get(key) ?? []), resolve]));
  }

  /**
   * Reserves `credits` for one create of the run when its cap has room (counting its jobs and its creates
   * on their way); false when the create would pass it. No await between the check and the reserve.
   */
  reserve(key: string, cap: number | null | undefined, submission: JobSubmission, credits: number): boolean {
    const sending = this.inFlight.get(key) ?? new Map<string, number>();
    let spent = this.tally(key).spent(sending);
    for (const price of sending.values()) spent += price;
    if (cap !== null && cap !== undefined && spent + credits > cap) return false;
    sending.set(stepKey(submission.purpose), credits);
    this.inFlight.set(key, sending);
    return true;
  }

  /** The create was answered (or failed): it counts by its job from now on. */
  settle(key: string, submission: JobSubmission, jobId: string | null): void {
    const sending = this.inFlight.get(key);
    const credits = sending?.get(stepKey(submission.purpose));
    sending?.delete(stepKey(submission.purpose));
    if (jobId !== null && credits !== undefined) {
      this.sentAt.set(jobId, credits);
      this.tallies.get(key)?.recount(jobId);
    }
    const waiting = this.waiters.get(key) ?? [];
    this.waiters.delete(key);
    for (const wake of waiting) wake();
  }

  /** Rows not ended and what they would cost at the run's own cost per finished row (null: none finished yet). */
  left(
    run: RunBase<RowBase>,
    key: string,
    rowOf: (job: CostedJob) => number | null,
  ): { rowsLeft: number; creditsLeft: number | null } {
    const rowsLeft = run.rows.filter((r) => !ROW_ENDED.has(r.state)).length;
    const done = new Set(run.rows.filter((r) => r.state === 'done').map((r) => r.row));
    const spent = this.runJobs
      .list(key)
      .filter((j) => done.has(rowOf(j) ?? -1))
      .reduce((sum, j) => sum + this.cost(j), 0);
    const perRow = done.size === 0 || spent === 0 ? null : spent / done.size;
    return { rowsLeft, creditsLeft: perRow === null ? null : Math.round(perRow * rowsLeft * 100) / 100 };
  }

  /** The run's tally: kept and moved to the newest place, or counted now from its jobs. */
  private tally(key: string): RunTally {
    const known = this.tallies.get(key);
    if (known) {
      this.tallies.delete(key);
      this.tallies.set(key, known);
      return known;
    }
    const tally = new RunTally((job) => this.cost(job));
    for (const job of this.runJobs.list(key)) tally.set(job);
    if (!this.kept) return tally;
    if (this.tallies.size >= TALLIES_KEPT) this.tallies.delete(this.tallies.keys().next().value as string);
    this.tallies.set(key, tally);
    return tally;
  }

  /** A job changed in the engine: counted again in its run's tally, when one is kept. */
  private changed(record: JobRecord): void {
    const runId = runOf(record);
    if (runId === null || this.tallies.size === 0) return;
    for (const [key, tally] of this.tallies) {
      if (!this.runJobs.running(key)) this.tallies.delete(key);
      else if (key.endsWith(`/${runId}`) && this.runJobs.has(key, record)) tally.set(record);
    }
  }
}
