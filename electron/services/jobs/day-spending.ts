import type { JobRecord } from '../../common/bridge/jobs';
import { creditsText } from '../../common/jobs/cost-model';
import { StudioError } from '../host/errors';

/** One connection's spending on one day (the caller's calendar day, `YYYY-MM-DD`). */
export interface SpendDay {
  connectionId: string;
  day: string;
}

export interface Reservation {
  admitted: boolean;
  /** The day's total after the reservation (or as it stood, when refused). */
  spent: number;
}

/**
 * The day's spending as one counter every sender checks and adds to in one step, so two workers cannot
 * both take the last credits under the daily limit. A create reserves its price before it is sent; one
 * refused before anything was made gives it back. A price nobody can say ahead (`null`) goes only while
 * some of the limit is left and reserves nothing (its charge is added once known).
 */
export interface DaySpending {
  reserve(day: SpendDay, credits: number | null, limit: number): Promise<Reservation>;
  /** Adds a charge learned afterwards, or gives back a reservation (a negative amount). */
  add(day: SpendDay, credits: number): Promise<number>;
  spent(day: SpendDay): Promise<number>;
}

/** Credits are kept in thousandths, so sums stay exact whole numbers (in Redis too). */
export const DAY_UNITS = 1000;
export const toDayUnits = (credits: number): number => Math.round(credits * DAY_UNITS);

const fits = (spent: number, credits: number | null, limit: number): boolean =>
  credits === null ? spent < limit : spent + credits <= limit;

/** The counter of this process alone: the default, where one host sends every create. */
export class InProcessDaySpending implements DaySpending {
  private readonly totals = new Map<string, number>();

  // No await between the check and the add: no other reserve of this process can come between them.
  async reserve(day: SpendDay, credits: number | null, limit: number): Promise<Reservation> {
    const spent = (this.totals.get(this.key(day)) ?? 0) / DAY_UNITS;
    if (!fits(spent, credits, limit)) return { admitted: false, spent };
    return { admitted: true, spent: this.addNow(day, credits ?? 0) };
  }

  async add(day: SpendDay, credits: number): Promise<number> {
    return this.addNow(day, credits);
  }

  private addNow(day: SpendDay, credits: number): number {
    const next = (this.totals.get(this.key(day)) ?? 0) + toDayUnits(credits);
    this.totals.set(this.key(day), next);
    return next / DAY_UNITS;
  }

  private key(day: SpendDay): string {
    return `${day.connectionId}/${day.day}`;
  }

  async spent(day: SpendDay): Promise<number> {
    return (this.totals.get(this.key(day)) ?? 0) / DAY_UNITS;
  }
}

/** What a create holds on the queue's day: put right to its charge once answered. */
export type DayHold = (job: Pick<JobRecord, 'phase' | 'remoteId' | 'chargedCredits'> | null) => Promise<void>;

/**
 * The day of the queue a run was sent to: one counter for every worker of it, whichever connection or
 * folder each has (the limit is the starting studio's, and travels with the run).
 */
const queueDay = (now: number): SpendDay => ({
  connectionId: 'queue',
  day: new Date(now).toLocaleDateString('en-CA'),
});

/**
 * Reserves a queued run's create on the day every worker shares, or refuses it (StudioError
 * 'spending-limit', which pauses the runs on the connection): its expected price in one step with the
 * check, so two workers cannot both take the last credits. The hold gives the price back when nothing was
 * made, and puts it right to the charge when the answer says one.
 */
export async function reserveQueueDay(
  days: DaySpending,
  limit: number,
  credits: number | null,
  now: number,
): Promise<DayHold> {
  const day = queueDay(now);
  const reserved = await days.reserve(day, credits, limit);
  if (!reserved.admitted)
    throw new StudioError(
      `Today's spending limit of ${creditsText(limit)}, shared by every worker of the queue, was reached (${creditsText(reserved.spent)} spent). Nothing was sent.`,
      'spending-limit',
    );
  return async (job) => {
    // Refused before anything was made (no job at the service): it cost nothing.
    const made = job !== null && !(job.phase === 'failed' && job.remoteId === null);
    const charged = made ? (job.chargedCredits ?? credits ?? 0) : 0;
    if (charged !== (credits ?? 0)) await days.add(day, charged - (credits ?? 0));
  };
}
