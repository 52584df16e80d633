import type { JobRecord } from '../../common/bridge/jobs';
import { dayStart, expectedCredits, jobPrice, type PastCharge, type Price } from '../../common/jobs/cost-model';

/** What this connection was charged, job by job, as the ledger knows it (the guide for unpublished prices). */
export function chargeHistory(records: Iterable<JobRecord>, connectionId: string): PastCharge[] {
  const history: PastCharge[] = [];
  for (const r of records) {
    if (r.connectionId === connectionId && r.chargedCredits !== null)
      history.push({ action: r.kind, credits: r.chargedCredits, at: r.createdAt });
  }
  return history;
}

/**
 * What today's jobs on a connection cost or are expected to: the charge where known, else the price the
 * job was sent at (its estimate, else the recent guide). Creates the service refused cost nothing.
 */
export function spentToday(
  records: Iterable<JobRecord>,
  connectionId: string,
  now: number,
  extra: readonly PastCharge[] = [],
): number {
  const from = dayStart(now);
  const all = [...records];
  const history = chargeHistory(all, connectionId);
  let spent = 0;
  for (const r of all) {
    if (r.connectionId !== connectionId || r.createdAt < from) continue;
    if (r.phase === 'failed' && r.remoteId === null) continue;
    if (r.chargedCredits !== null) spent += r.chargedCredits;
    // A job still without a charge and without any figure counts once its charge is recorded.
    else
      spent +=
        expectedCredits(
          r.costEstimate
            ? { published: true, credits: r.costEstimate.credits, basis: r.costEstimate.basis }
            : jobPrice(r.kind, {}, history),
        ) ?? 0;
  }
  for (const c of extra) if (c.at >= from) spent += c.credits;
  return spent;
}

/** The costEstimate a record keeps: the published figure only (a guide is not a price). */
export function recordedEstimate(price: Price): JobRecord['costEstimate'] {
  return price.published ? { credits: price.credits, basis: price.basis } : null;
}

/**
 * One create at a time per connection, so the balance read before and after it measures that create's
 * charge alone (from this process; another client of the same account is the one case it cannot see).
 */
export class CreateLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
