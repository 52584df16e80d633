import { z } from 'zod';
import { creditsText } from './cost-model';

/**
 * A run's (a batch's, a campaign's) readings of its connection's balance: when it started sending,
 * every few minutes while it runs, and when it paused or ended. Its jobs go out side by side, so no
 * single job's charge is measured from the balance; the run's fall is, and it is shown beside the sum of
 * its jobs' figures.
 */
export const RunBalance = z.object({
  connectionId: z.string().max(200),
  /** The balance (quota/info) before the run's first create, and when it was read. */
  start: z.number(),
  startedAt: z.number(),
  /** The latest reading, and when it was read. */
  latest: z.number(),
  latestAt: z.number(),
  /** When the run ended (its last reading); null while it runs or is paused. */
  endedAt: z.number().nullable(),
});
export type RunBalance = z.infer<typeof RunBalance>;

/** What a run's jobs cost by their own figures: charges (or prices) known, and how many say nothing. */
export interface RunFigures {
  credits: number;
  /** Jobs with no figure at all (no service figure, no price, nothing to estimate from). */
  unknown: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * "The balance fell by 1,240 credits; its jobs' prices add up to 1,200." (null without readings). While
 * the run goes on it says "so far", with the time of the latest reading. Other work on the same account
 * in the meantime (another run, a job by hand, another client) falls in the same drop.
 */
export function describeRunBalance(
  balance: RunBalance | null | undefined,
  figures: RunFigures,
  time: (at: number) => string = (at) => new Date(at).toLocaleTimeString(),
): string | null {
  if (!balance) return null;
  const fall = round(balance.start - balance.latest);
  const moved =
    fall > 0
      ? `fell by ${creditsText(fall)}`
      : fall < 0
        ? `rose by ${creditsText(-fall)} (credits were added meanwhile)`
        : 'did not change';
  const when = balance.endedAt === null ? `So far (read at ${time(balance.latestAt)}) the balance` : 'The balance';
  const unknown =
    figures.unknown > 0
      ? `, and ${figures.unknown} job${figures.unknown === 1 ? ' has' : 's have'} no figure of ${figures.unknown === 1 ? 'its' : 'their'} own`
      : '';
  return `${when} ${moved}; its jobs' prices add up to ${round(figures.credits).toLocaleString('en-US')}${unknown}.`;
}

/** The figures of a run's jobs made since its first reading: each job's charge, else its price on its way. */
export function runFigures(
  jobs: readonly {
    chargedCredits: number | null;
    costEstimate: { credits: number } | null;
    phase: string;
    remoteId: string | null;
    createdAt: number;
  }[],
  since: number,
): RunFigures {
  let credits = 0;
  let unknown = 0;
  for (const job of jobs) {
    if (job.createdAt < since) continue;
    if (job.chargedCredits !== null) credits += job.chargedCredits;
    // Refused at its create: the service made nothing and charged nothing.
    else if (job.phase === 'failed' && job.remoteId === null) continue;
    else if (job.costEstimate) credits += job.costEstimate.credits;
    else unknown += 1;
  }
  return { credits, unknown };
}
