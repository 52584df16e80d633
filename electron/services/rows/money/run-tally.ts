import type { CostEstimate, JobView } from '../../../common/bridge/jobs';

/** What a job's cost is worked out from (not the record: its request and answer). */
export type CostFacts = Pick<JobView, 'id' | 'kind' | 'phase' | 'remoteId' | 'chargedCredits'> & {
  costEstimate: Pick<CostEstimate, 'credits'> | null;
};

/** A job as a tally is given it: its record or its view alike. */
export type CostedJob = CostFacts & Pick<JobView, 'purpose'>;

/**
 * One run's jobs summed as they change. Each job is counted once, as its latest record says, so a run of
 * 300,000 jobs answers a create's check against its cap without looking at them all again.
 */
export class RunTally {
  /** What each job counts for now, by id. */
  private readonly costs = new Map<string, number>();
  private sum = 0;

  constructor(private readonly costOf: (job: CostFacts) => number) {}

  /** Counts the job as this record says, in place of what an earlier record of it said. */
  set(job: CostFacts): void {
    const cost = this.costOf(job);
    this.sum += cost - (this.costs.get(job.id) ?? 0);
    this.costs.set(job.id, cost);
  }

  /** What the run's jobs cost. */
  spent(): number {
    // Sums kept by adding and taking away drift by a hair with fractional prices: never enough to matter,
    // but enough to tip a cap met exactly.
    return Math.round(this.sum * 1e6) / 1e6;
  }
}
