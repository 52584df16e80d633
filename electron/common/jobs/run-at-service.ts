import { z } from 'zod';
import { creditsText } from './cost-model';
import { isActivePhase, type JobPhase } from './phases';

/**
 * A run's steps the service holds now: its jobs in an active phase, read from the ledger. After Pause no
 * paid request leaves, but these were sent before it: they finish, are saved, and are charged. The banner
 * says how many and what they will cost, so the user knows what the pause still spends.
 */
export const RunAtService = z.object({
  /** Jobs sent and not ended. */
  steps: z.number().int().nonnegative(),
  /** What they will cost: each one's charge when the service said it, else its estimate. */
  credits: z.number().nonnegative(),
  /** Steps with neither a charge nor an estimate (their cost is not in `credits`). */
  unknown: z.number().int().nonnegative(),
});
export type RunAtService = z.infer<typeof RunAtService>;

/** The run's jobs at the service now, from its own jobs in the ledger. */
export function runAtService(
  jobs: Iterable<{ phase: JobPhase; chargedCredits: number | null; costEstimate: { credits: number } | null }>,
): RunAtService {
  let steps = 0;
  let credits = 0;
  let unknown = 0;
  for (const job of jobs) {
    if (!isActivePhase(job.phase)) continue;
    steps += 1;
    const figure = job.chargedCredits ?? job.costEstimate?.credits ?? null;
    if (figure === null) unknown += 1;
    else credits += figure;
  }
  return { steps, credits: Math.round(credits * 100) / 100, unknown };
}

/**
 * "3 steps still at the service finish and are saved (about 31 credits)." Empty when none is: the pause
 * then spends nothing more.
 */
export function atServiceText(at: RunAtService | null | undefined): string {
  if (!at || at.steps === 0) return '';
  const what = `${count(at.steps)} step${at.steps === 1 ? '' : 's'} still at the service ${at.steps === 1 ? 'finishes and is' : 'finish and are'} saved`;
  const known = at.steps - at.unknown;
  const cost =
    known === 0
      ? 'their price is not known yet'
      : `about ${creditsText(Math.ceil(at.credits))}${at.unknown ? `, and ${count(at.unknown)} with no price known yet` : ''}`;
  return `${what} (${cost}).`;
}

const count = (n: number) => n.toLocaleString('en-US');
