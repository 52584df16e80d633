import type { ChargeSource, JobRecord } from '../../common/bridge/jobs';
import {
  dayStart,
  expectedCredits,
  jobPrice,
  type PastCharge,
  type Price,
  type RecentCost,
} from '../../common/jobs/cost-model';

/** What the spending gate reads of a job: a record in memory, or what stands for records let go of (forgotten-jobs.ts). */
export type ChargeFacts = Pick<
  JobRecord,
  'connectionId' | 'kind' | 'createdAt' | 'phase' | 'remoteId' | 'chargedCredits' | 'chargeSource' | 'costEstimate'
>;

/**
 * What this connection was charged, job by job, as the ledger knows it (the guide for unpublished prices).
 * A charge that is itself the guide's estimate is left out, so the guide only ever repeats real figures,
 * and so is a failed job's (refunded: its nothing says nothing of what a job of its kind costs).
 */
export function chargeHistory(records: Iterable<ChargeFacts>, connectionId: string): PastCharge[] {
  const history: PastCharge[] = [];
  for (const r of records) {
    if (r.connectionId === connectionId && r.chargedCredits !== null && guides(r))
      history.push({ action: r.kind, credits: r.chargedCredits, at: r.createdAt });
  }
  return history;
}

/** Whether a job's charge on record is one the guide goes by (not a refund, not the guide's own estimate). */
export const guides = (r: Pick<ChargeFacts, 'phase' | 'chargedCredits' | 'chargeSource'>): boolean =>
  r.phase !== 'failed' && r.chargedCredits !== null && r.chargeSource !== 'estimate';

/**
 * What an answered job counts in its day's total: its charge where known, else the price it was sent at
 * (its estimate, else the recent guide). A create the service refused counts nothing.
 */
export function countedCredits(r: ChargeFacts, history: readonly PastCharge[]): number {
  if (r.phase === 'failed' && r.remoteId === null) return 0;
  if (r.chargedCredits !== null) return r.chargedCredits;
  // A job still without a charge and without any figure counts once its charge is recorded.
  return (
    expectedCredits(
      r.costEstimate
        ? { published: true, credits: r.costEstimate.credits, basis: r.costEstimate.basis }
        : jobPrice(r.kind, {}, history),
    ) ?? 0
  );
}

/**
 * What today's answered jobs on a connection cost or are expected to (countedCredits); creates still on
 * their way ('submitting') are counted by CreatesInFlight at their price.
 */
export function spentToday(
  records: Iterable<ChargeFacts>,
  connectionId: string,
  now: number,
  extra: readonly PastCharge[] = [],
): number {
  const from = dayStart(now);
  const all = [...records];
  const history = chargeHistory(all, connectionId);
  let spent = 0;
  for (const r of all)
    if (r.connectionId === connectionId && r.createdAt >= from && r.phase !== 'submitting')
      spent += countedCredits(r, history);
  for (const c of extra) if (c.at >= from) spent += c.credits;
  return spent;
}

/** The costEstimate a record keeps: the published figure only (a guide is not a price). */
export function recordedEstimate(price: Price): JobRecord['costEstimate'] {
  return price.published ? { credits: price.credits, basis: price.basis } : null;
}

/**
 * A job's charge once the service accepted its create, and where it came from: the service's own figure
 * where its answer carries one, else the balance's fall around the create where that was measured alone,
 * else the published price it was sent at, else the estimate from this connection's recent charges.
 */
export function chargeAtAnswer(
  serviceFigure: number | null,
  measured: number | null,
  price: Price,
): { chargedCredits: number | null; chargeSource: ChargeSource | null } {
  if (serviceFigure !== null) return { chargedCredits: serviceFigure, chargeSource: 'service' };
  if (measured !== null) return { chargedCredits: measured, chargeSource: 'balance' };
  if (price.published) return { chargedCredits: price.credits, chargeSource: 'published' };
  if (price.recent) return { chargedCredits: price.recent.credits, chargeSource: 'estimate' };
  return { chargedCredits: null, chargeSource: null };
}

/**
 * A completed job with no charge on record (no figure from the service, not measured, no published price,
 * no charge of its kind on record when it was answered: a worker's first voiceover sent beside another
 * worker's create, or one it took over before it had made any) takes the guide its kind has now, as an
 * estimate, so the ledger's total keeps following the balance. It stays unknown while there is no guide.
 */
export function pricedOnceCompleted<Job extends Pick<JobRecord, 'phase' | 'chargedCredits' | 'chargeSource'>>(
  job: Job,
  recent: () => RecentCost | null,
): Job {
  if (job.phase !== 'completed' || job.chargedCredits !== null) return job;
  const guide = recent();
  return guide ? { ...job, chargedCredits: guide.credits, chargeSource: 'estimate' } : job;
}
