import type { JobSubmission, JobView } from '../../common/bridge/jobs';
import { ROW_ENDED, type RowBase, type RowJobs, type RunBase } from './row-kind';

/**
 * What each run has cost so far and what its creates on their way will, for the run's cap ("stop after
 * N credits") and for what a paused run's rows left would cost. A job counts at its charge, else at
 * its published figure, else at the price it was sent at; a create the service refused costs nothing.
 * A create is reserved at its price in the same step as the check, so rows sent side by side cannot pass
 * the cap together.
 */
export class RunSpending {
  /** Credits of creates on their way, by run. */
  private readonly inFlight = new Map<string, number>();
  /** The price each run's job was sent at, for jobs the ledger has no figure for. */
  private readonly sentAt = new Map<string, number>();
  /** How many of each run's creates are on their way, and who waits for one of them to be answered. */
  private readonly count = new Map<string, number>();
  private readonly waiters = new Map<string, (() => void)[]>();

  constructor(private readonly jobs: RowJobs) {}

  /** What one job of a run counts for. */
  cost(job: JobView): number {
    if (job.phase === 'submitting' || (job.phase === 'failed' && job.remoteId === null)) return 0;
    return job.chargedCredits ?? job.costEstimate?.credits ?? this.sentAt.get(job.id) ?? 0;
  }

  /**
   * A create's expected price: the connection's (published, or its recent charges), else this run's own
   * of the kind; null when nobody can say it yet (the first of its kind).
   */
  async price(submission: JobSubmission, own: readonly JobView[]): Promise<number | null> {
    const expected = await this.jobs.expectedCredits?.(submission).catch(() => null);
    if (expected !== null && expected !== undefined) return expected;
    const same = own.filter((j) => j.kind === submission.kind && this.cost(j) > 0);
    return same.length === 0 ? null : same.reduce((sum, j) => sum + this.cost(j), 0) / same.length;
  }

  /** Whether one of the run's creates is on its way. */
  sending(key: string): boolean {
    return (this.count.get(key) ?? 0) > 0;
  }

  /** Resolves once the run's next create on its way is answered. */
  settled(key: string): Promise<void> {
    return new Promise((resolve) => this.waiters.set(key, [...(this.waiters.get(key) ?? []), resolve]));
  }

  /**
   * Reserves `credits` for one create of the run when its cap has room (counting its jobs and its creates
   * on their way); false when the create would pass it. No await between the check and the reserve.
   */
  reserve(key: string, cap: number | null | undefined, own: readonly JobView[], credits: number): boolean {
    const spent = own.reduce((sum, j) => sum + this.cost(j), 0) + (this.inFlight.get(key) ?? 0);
    if (cap !== null && cap !== undefined && spent + credits > cap) return false;
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + credits);
    this.count.set(key, (this.count.get(key) ?? 0) + 1);
    return true;
  }

  /** The create was answered (or failed): it counts by its job from now on. */
  settle(key: string, credits: number, jobId: string | null): void {
    this.inFlight.set(key, Math.max(0, (this.inFlight.get(key) ?? 0) - credits));
    this.count.set(key, Math.max(0, (this.count.get(key) ?? 0) - 1));
    if (jobId !== null) this.sentAt.set(jobId, credits);
    const waiting = this.waiters.get(key) ?? [];
    this.waiters.delete(key);
    for (const wake of waiting) wake();
  }

  /** Rows not ended and what they would cost at the run's own cost per finished row (null: none finished yet). */
  left(
    run: RunBase<RowBase>,
    own: readonly JobView[],
    rowOf: (job: JobView) => number | null,
  ): { rowsLeft: number; creditsLeft: number | null } {
    const rowsLeft = run.rows.filter((r) => !ROW_ENDED.has(r.state)).length;
    const done = new Set(run.rows.filter((r) => r.state === 'done').map((r) => r.row));
    const spent = own.filter((j) => done.has(rowOf(j) ?? -1)).reduce((sum, j) => sum + this.cost(j), 0);
    const perRow = done.size === 0 || spent === 0 ? null : spent / done.size;
    return { rowsLeft, creditsLeft: perRow === null ? null : Math.round(perRow * rowsLeft * 100) / 100 };
  }
}
