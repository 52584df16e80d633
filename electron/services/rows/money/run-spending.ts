import type { JobRecord } from '../../../common/bridge/jobs';
import { runOf } from '../../jobs/job-scope';
import { ROW_ENDED, type RowBase, type RowJobs, type RunBase } from '../engine/row-kind';
import { RunTally, type CostedJob, type CostFacts } from './run-tally';

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
 * What each run's jobs have cost so far (the room a row hold finds under the run's cap is its cap less
 * this), and what a paused run's rows left would cost. A job counts at its
 * charge, else at its published figure; a create the service refused costs nothing. A run's jobs are
 * counted once and kept counted as the engine changes them (RunTally), so a check does not grow with
 * the run; with an engine that says nothing of its changes, they are counted afresh at each check.
 */
export class RunSpending {
  /** Runs' tallies kept up to date by the engine's changes, by `kind/runId`, the latest asked last. */
  private readonly tallies = new Map<string, RunTally>();
  private readonly kept: boolean;

  constructor(
    jobs: RowJobs,
    private readonly runJobs: RunJobs,
  ) {
    this.kept = typeof jobs.subscribeRecords === 'function';
    jobs.subscribeRecords?.((record) => this.changed(record));
  }

  /** What one job of a run counts for (one on its way counts in the budget until it is answered). */
  cost(job: CostFacts): number {
    if (job.phase === 'submitting' || (job.phase === 'failed' && job.remoteId === null)) return 0;
    return job.chargedCredits ?? job.costEstimate?.credits ?? 0;
  }

  /** What the run's jobs have cost so far. */
  spent(key: string): number {
    return this.tally(key).spent();
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
