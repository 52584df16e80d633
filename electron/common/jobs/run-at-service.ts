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
  /**
   * The part of `credits` the service has charged already: a service that charges at the create has paid
   * for what it holds, so the banner must not read as more spending to come.
   */
  charged: z.number().nonnegative().optional(),
});
export type RunAtService = z.infer<typeof RunAtService>;

/** The run's jobs at the service now, from its own jobs in the ledger. */
export function runAtService(
  jobs: Iterable<{ phase: JobPhase; chargedCredits: number | null; costEstimate: { credits: number } | null }>,
): RunAtService {
  let steps = 0;
  let credits = 0;
  let unknown = 0;
  let charged = 0;
  for (const job of jobs) {
    if (!isActivePhase(job.phase)) continue;
    steps += 1;
    const figure = job.chargedCredits ?? job.costEstimate?.credits ?? null;
    if (figure === null) unknown += 1;
    else credits += figure;
    charged += job.chargedCredits ?? 0;
  }
  return { steps, credits: round(credits), unknown, charged: round(charged) };
}

/**
 * "3 steps still at the service finish and are saved (about 31 credits)." Empty when none is: the pause
 * then spends nothing more.
 */
export function atServiceText(at: RunAtService | null | undefined): string {
  if (!at || at.steps === 0) return '';
  const what = `${count(at.steps)} step${at.steps === 1 ? '' : 's'} still at the service ${at.steps === 1 ? 'finishes and is' : 'finish and are'} saved`;
  const known = at.steps - at.unknown;
  const charged = at.charged ?? 0;
  const paid =
    charged <= 0
      ? ''
      : charged >= at.credits
        ? ', charged already when sent'
        : `, ${creditsText(Math.ceil(charged))} of it charged already`;
  const cost =
    known === 0
      ? 'their price is not known yet'
      : `about ${creditsText(Math.ceil(at.credits))}${paid}${at.unknown ? `, and ${count(at.unknown)} with no price known yet` : ''}`;
  return `${what} (${cost}).`;
}

const round = (credits: number) => Math.round(credits * 100) / 100;

const count = (n: number) => n.toLocaleString('en-US');
