import type { CostEstimate, JobView } from '../../../common/bridge/jobs';
import { stableStringify } from '../../jobs/stable-json';

/** What a job's cost is worked out from, all a tally keeps of it (not the record: its request and answer). */
export type CostFacts = Pick<JobView, 'id' | 'kind' | 'phase' | 'remoteId' | 'chargedCredits'> & {
  costEstimate: Pick<CostEstimate, 'credits'> | null;
};

/** A job as a tally is given it: its record or its view alike. */
export type CostedJob = CostFacts & Pick<JobView, 'purpose'>;

/** One step of one take of one row, the same for a submission and for the ledger's record of it. */
export const stepKey = (purpose: JobView['purpose'] | undefined): string =>
  stableStringify({ ...purpose, take: purpose && 'take' in purpose ? (purpose.take ?? 0) : 0 });

interface Counted {
  facts: CostFacts;
  step: string;
  cost: number;
}

/**
 * One run's jobs summed as they change: what they cost in all, by step (a step on its way counts by its
 * reservation instead), and by kind (a price nobody publishes is guessed from the run's own). Each job
 * is counted once, as its latest record says, so a run of 300,000 jobs answers a create's check without
 * looking at them all again.
 */
export class RunTally {
  private readonly jobs = new Map<string, Counted>();
  private readonly byStep = new Map<string, number>();
  private readonly byKind = new Map<string, { sum: number; n: number }>();
  private sum = 0;

  constructor(private readonly costOf: (job: CostFacts) => number) {}

  /** Counts the job as this record says, in place of what an earlier record of it said. */
  set(job: CostedJob): void {
    const step = this.jobs.get(job.id)?.step ?? stepKey(job.purpose);
    const { id, kind, phase, remoteId, chargedCredits, costEstimate } = job;
    const credits = costEstimate?.credits;
    this.put(step, {
      id,
      kind,
      phase,
      remoteId,
      chargedCredits,
      costEstimate: credits === undefined ? null : { credits },
    });
  }

  /** Counts the job again as it stands (what it costs changed without a new record: its sent price became known). */
  recount(id: string): void {
    const counted = this.jobs.get(id);
    if (counted) this.put(counted.step, counted.facts);
  }

  private put(step: string, facts: CostFacts): void {
    const before = this.jobs.get(facts.id);
    if (before) this.count(before, -1);
    const counted = { facts, step, cost: this.costOf(facts) };
    this.jobs.set(facts.id, counted);
    this.count(counted, 1);
  }

  /** What the run's jobs cost, those of the steps on their way left out (`sending`: by step). */
  spent(sending: ReadonlyMap<string, number> = new Map()): number {
    let spent = this.sum;
    for (const step of sending.keys()) spent -= this.byStep.get(step) ?? 0;
    // Sums kept by adding and taking away drift by a hair with fractional prices: never enough to matter,
    // but enough to tip a cap met exactly.
    return Math.round(spent * 1e6) / 1e6;
  }

  /** What the run's jobs of this kind that cost something cost on average; null when none has yet. */
  average(kind: string): number | null {
    const of = this.byKind.get(kind);
    return of && of.n > 0 ? of.sum / of.n : null;
  }

  private count({ facts, step, cost }: Counted, sign: 1 | -1): void {
    this.sum += sign * cost;
    this.byStep.set(step, (this.byStep.get(step) ?? 0) + sign * cost);
    if (cost <= 0) return;
    const of = this.byKind.get(facts.kind) ?? { sum: 0, n: 0 };
    this.byKind.set(facts.kind, { sum: of.sum + sign * cost, n: of.n + sign });
  }
}
