import type { JobSubmission, JobView } from '../../../common/bridge/jobs';
import { stableStringify } from '../../jobs/stable-json';
import { ROW_ENDED, type RowBase, type RowJobs, type RunBase } from '../engine/row-kind';

/** One step of one take of one row, the same for a submission and for the ledger's record of it. */
const stepKey = (purpose: JobView['purpose'] | undefined): string =>
  stableStringify({ ...purpose, take: purpose && 'take' in purpose ? (purpose.take ?? 0) : 0 });

/**
 * What each run has cost so far and what its creates on their way will, for the run's cap ("stop after
 * N credits") and for what a paused run's rows left would cost. A job counts at its charge, else at
 * its published figure, else at the price it was sent at; a create the service refused costs nothing.
 * A create on its way counts at its price (and its record not yet), reserved in the same step as the
 * check, so rows sent side by side cannot pass the cap together.
 */
export class RunSpending {
  /** Each run's creates on their way: their price, by the step they make. */
  private readonly inFlight = new Map<string, Map<string, number>>();
  /** The price each run's job was sent at, for jobs the ledger has no figure for. */
  private readonly sentAt = new Map<string, number>();
  /** Who waits for one of a run's creates to be answered. */
  private readonly waiters = new Map<string, (() => void)[]>();

  constructor(private readonly jobs: RowJobs) {}

  /** What one job of a run counts for (a job still on its way counts by its reservation instead). */
  cost(job: JobView, sending?: ReadonlyMap<string, number>): number {
    if (job.phase === 'submitting' || (job.phase === 'failed' && job.remoteId === null)) return 0;
    if (sending?.has(stepKey(job.purpose))) return 0;
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
  reserve(
    key: string,
    cap: number | null | undefined,
    own: readonly JobView[],
    submission: JobSubmission,
    credits: number,
  ): boolean {
    const sending = this.inFlight.get(key) ?? new Map<string, number>();
    let spent = 0;
    for (const job of own) spent += this.cost(job, sending);
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
    if (jobId !== null && credits !== undefined) this.sentAt.set(jobId, credits);
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
