import { z } from 'zod';
import type { PriceQuote } from '../bridge/jobs';
import { creditsText, totalPrice } from './cost-model';

/**
 * Why a run (a batch, a campaign) stopped creating on its own: the account ran out of credits (the
 * service answered 1006 or 1104), the day's spending limit was reached, or the run reached the cap the
 * user set on it. Nothing failed for it: rows not sent wait, and Resume goes on from there.
 */
export const RunPauseReason = z.enum(['balance', 'daily-limit', 'cap']);
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
};

/** The pause in a few words, for a tag or a banner's title. */
export const PAUSE_LABELS: Record<RunPauseReason, string> = {
  balance: 'Paused: out of credits',
  'daily-limit': "Paused: today's limit",
  cap: 'Paused at its cap',
};

const THEN: Record<RunPauseReason, string> = {
  balance: 'Top up the account, then resume',
  'daily-limit': "Raise today's limit (Settings) or wait until tomorrow, then resume",
  cap: 'Raise or remove the cap, then resume',
};

/** The pause in one line: "Paused: the account ran out of credits. 160 rows left (about 160 credits). Top up …". */
export function describePause(pause: RunPause): string {
  const rows = `${pause.rowsLeft.toLocaleString('en-US')} row${pause.rowsLeft === 1 ? '' : 's'} left`;
  const cost = pause.creditsLeft === null ? '' : ` (about ${creditsText(Math.ceil(pause.creditsLeft))})`;
  return `Paused: ${REASONS[pause.reason]}. ${rows}${cost}; nothing failed for it. ${THEN[pause.reason]}.`;
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
