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
  /** Credits of jobs sent after the balance's latest reading: not in it yet, so not held against its fall. */
  later?: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * How far the fall may stray from the jobs' figures before the difference is named: estimates stand in
 * for charges not reported yet, and the service rounds.
 */
const slack = (credits: number) => Math.max(1, credits * 0.02);

/**
 * "The balance fell by 993 credits; its jobs' prices add up to 3,993. 3,000 credits were added to the
 * account meanwhile (a top-up)." (null without readings). While the run goes on it says "so far", with the
 * time of the latest reading, and holds against the fall only the jobs sent before that reading. A fall
 * smaller than the jobs' figures is credits added (a top-up); a larger one is other spending on the same
 * account meanwhile (another run, a job by hand, another client): either is named, with its amount, so
 * the line never says "did not change" of a balance that paid for the run and was topped up.
 */
export function describeRunBalance(
  balance: RunBalance | null | undefined,
  figures: RunFigures,
  time: (at: number) => string = (at) => new Date(at).toLocaleTimeString(),
): string | null {
  if (!balance) return null;
  const fall = round(balance.start - balance.latest);
  const moved =
    fall > 0 ? `fell by ${creditsText(fall)}` : fall < 0 ? `rose by ${creditsText(-fall)}` : 'did not change';
  const going = balance.endedAt === null;
  const when = going ? `So far (read at ${time(balance.latestAt)}) the balance` : 'The balance';
  const unknown =
    figures.unknown > 0
      ? `, and ${figures.unknown} job${figures.unknown === 1 ? ' has' : 's have'} no figure of ${figures.unknown === 1 ? 'its' : 'their'} own`
      : '';
  const later = round(figures.later ?? 0);
  const upTo = later > 0 ? ' up to that reading' : '';
  const line = `${when} ${moved}; its jobs' prices${upTo} add up to ${round(figures.credits).toLocaleString('en-US')}${unknown}.`;
  const gap = round(figures.credits - fall);
  const named =
    gap > slack(figures.credits)
      ? ` ${figures.unknown > 0 ? 'At least ' : ''}${creditsText(gap)} ${gap === 1 ? 'was' : 'were'} added to the account meanwhile (a top-up).`
      : -gap > slack(figures.credits) && figures.unknown === 0
        ? ` ${creditsText(-gap)} more went to other spending on the account meanwhile (another run, a job by hand, another client).`
        : '';
  const since = later > 0 ? ` Jobs sent since (about ${creditsText(later)}) are not in that reading yet.` : '';
  return `${line}${named}${since}`;
}

/**
 * The figures of a run's jobs made since its first reading: each job's charge, else its price on its way.
 * Jobs made after `until` (the latest reading) are counted apart, as `later`.
 */
export function runFigures(
  jobs: readonly {
    chargedCredits: number | null;
    costEstimate: { credits: number } | null;
    phase: string;
    remoteId: string | null;
    createdAt: number;
  }[],
  since: number,
  until = Infinity,
): RunFigures {
  let credits = 0;
  let unknown = 0;
  let later = 0;
  for (const job of jobs) {
    if (job.createdAt < since) continue;
    // Refused at its create: the service made nothing and charged nothing.
    if (job.chargedCredits === null && job.phase === 'failed' && job.remoteId === null) continue;
    // Of unknown outcome (the studio stopped before the service answered): the service may have made and
    // charged it or not, so its price is no figure, and a fall short of it is no top-up.
    const price = job.phase === 'outcome-unknown' ? null : (job.costEstimate?.credits ?? null);
    const figure = job.chargedCredits ?? price;
    if (job.createdAt > until) later += figure ?? 0;
    else if (figure === null) unknown += 1;
    else credits += figure;
  }
  return { credits, unknown, later };
}

/** Up to when a run's jobs are in its latest reading: that reading while it runs; all of them once it ended. */
export const readingCut = (balance: RunBalance): number => (balance.endedAt === null ? balance.latestAt : Infinity);
