import { z } from 'zod';
import type { PriceQuote } from '../bridge/jobs';
import { creditsText, totalPrice } from './cost-model';
import { atServiceText, type RunAtService } from './run-at-service';

/**
 * Why a run (a batch, a campaign) stopped creating on its own: the account ran out of credits (the
 * service answered 1006 or 1104), the day's spending limit was reached, the run reached the cap the
 * user set on it, or its queue cannot be used (its Redis gone, or refusing this studio: the pause's
 * message says which and what to do). Nothing failed for it: rows not sent wait, and Resume goes on from there.
 */
export const RunPauseReason = z.enum(['balance', 'daily-limit', 'cap', 'queue']);
export type RunPauseReason = z.infer<typeof RunPauseReason>;

export const RunPause = z.object({
  reason: RunPauseReason,
  at: z.number(),
  /** The service's or the limit's own words. */
  message: z.string().max(2000),
  /** Rows that had not ended when the run paused. */
  rowsLeft: z.number().int().nonnegative(),
  /** What those rows would cost, judging by the run's own rows so far (null: no figure yet). */
  creditsLeft: z.number().nonnegative().nullable(),
});
export type RunPause = z.infer<typeof RunPause>;

/** "Stop after N credits": the most a run may spend, counted over all its jobs (null: no cap). */
export const RunCap = z.number().positive().max(100_000_000).nullable();

const REASONS: Record<RunPauseReason, string> = {
  balance: 'the account ran out of credits',
  'daily-limit': "today's spending limit was reached",
  cap: 'it reached the credits you allowed it',
  queue: 'its queue cannot be used',
};

/** The pause in a few words, for a tag or a banner's title. */
export const PAUSE_LABELS: Record<RunPauseReason, string> = {
  balance: 'Paused: out of credits',
  'daily-limit': "Paused: today's limit",
  cap: 'Paused at its cap',
  queue: 'Paused: its queue cannot be used',
};

const THEN: Record<RunPauseReason, string> = {
  balance: 'Top up the account, then resume',
  'daily-limit': "Raise today's limit (Settings) or wait until tomorrow, then resume",
  cap: 'Raise or remove the cap, then resume',
  queue: '',
};

/**
 * What a pause banner counts now rather than when the run paused: rows still to end and what they will
 * cost (the run's projection), and its steps still at the service. A banner that kept the counts of its
 * pause said "4,979 rows left" while rows went on ending.
 */
export interface PauseNow {
  rowsLeft: number;
  /** What the rows left will still cost (null: no price known yet). */
  creditsLeft: number | null;
  atService?: RunAtService | null;
}

/** "2 rows left (about 22 credits…)": the rows now, or the pause's own count without a live one. */
function rowsLeftText(pause: Pick<RunPause, 'rowsLeft' | 'creditsLeft'> | null, now: PauseNow | undefined): string {
  const rowsLeft = now?.rowsLeft ?? pause?.rowsLeft ?? 0;
  // Without a price now, the pause's figure for its rows stands, spread over the rows left now.
  const credits =
    now?.creditsLeft ??
    (pause?.creditsLeft != null && pause.rowsLeft > 0 ? (pause.creditsLeft / pause.rowsLeft) * rowsLeft : null);
  const within = now?.atService?.steps ? ' to finish them, those steps included' : '';
  const cost = credits === null ? '' : ` (about ${creditsText(Math.ceil(credits))}${within})`;
  return `${rowsLeft.toLocaleString('en-US')} row${rowsLeft === 1 ? '' : 's'} left${cost}`;
}

/**
 * The pause in one line: "Paused: the account ran out of credits. 3 steps still at the service finish
 * and are saved (about 31 credits). 160 rows left (about 160 credits); nothing failed for it. Top up …".
 */
export function describePause(pause: RunPause, now?: PauseNow): string {
  const steps = atServiceText(now?.atService);
  const left = `${steps ? `${steps} ` : ''}${rowsLeftText(pause, now)}; nothing failed for it.`;
  // A queue's pause says in its own words what is wrong with the queue and what to do.
  if (pause.reason === 'queue') return `Paused: ${pause.message} ${left}`;
  return `Paused: ${REASONS[pause.reason]}. ${left} ${THEN[pause.reason]}.`;
}

/**
 * The user's own pause: no paid request leaves after it; steps the service holds finish and are saved
 * (Resume takes each row on from its step).
 */
export function describeUserPause(now: PauseNow): string {
  const steps = atServiceText(now.atService) || 'Nothing is at the service now.';
  return `Paused: no paid request is sent after the pause. ${steps} ${rowsLeftText(null, now)}; Resume goes on from there.`;
}

/** How many of a run's rows the balance covers, from the total the run is expected to cost (null: unknown). */
export function balanceCovers(
  balance: number | null,
  totalCredits: number | null,
  rows: number,
): { rows: number; of: number } | null {
  if (balance === null || totalCredits === null || rows <= 0 || totalCredits <= 0) return null;
  return { rows: Math.min(rows, Math.floor(balance / (totalCredits / rows))), of: rows };
}

/**
 * How many of a run's rows the balance in its price question covers: its lines' prices (published, or
 * judged by the connection's recent charges) spread over its rows; null when no price is known.
 */
export function quoteCovers(
  quote: Pick<PriceQuote, 'items' | 'balance'>,
  rows: number,
): { rows: number; of: number } | null {
  const prices = quote.items.flatMap((item) => Array.from({ length: item.count }, () => item.price));
  return balanceCovers(quote.balance, totalPrice(prices).likely, rows);
}

/** "Your balance of 1,000 credits covers about 40 of these 200 rows." (null when it covers them all or is unknown). */
export function coversText(balance: number | null, covers: { rows: number; of: number } | null): string | null {
  if (balance === null || covers === null || covers.rows >= covers.of) return null;
  const [rows, of] = [covers.rows, covers.of].map((n) => n.toLocaleString('en-US'));
  return `Your balance of ${creditsText(balance)} covers about ${rows} of these ${of} rows: the run pauses when it runs out, and goes on after a top-up.`;
}
