import { z } from 'zod';
import { JOB_KINDS, JOB_KIND_REGISTRY, type CostEstimate, type JobKind } from './kinds';

/**
 * What a paid action costs, said once for every screen, the engine and the command line. A price is
 * either published (the character-swap table, the model list's `unit_credit`) or honestly not: then the
 * service still charges, and what this connection was charged for the same kind lately is the best guide.
 */
export const PAID_ACTIONS = [...JOB_KINDS, 'live-session'] as const;
export type PaidAction = (typeof PAID_ACTIONS)[number];

export const PAID_ACTION_LABELS: Record<PaidAction, string> = {
  ...(Object.fromEntries(JOB_KINDS.map((k) => [k, JOB_KIND_REGISTRY[k].label])) as Record<JobKind, string>),
  'live-session': 'Live face swap session',
};

export const UNPUBLISHED_NOTE = 'The service charges for this; its price is not published.';

/** How many recent charges of a kind the guide for an unpublished price looks at. */
export const RECENT_CHARGES = 5;

export const RecentCost = z.object({
  count: z.number().int().positive(),
  /** The mean of those charges, rounded to a tenth. */
  credits: z.number().nonnegative(),
  /** "the last 5 cost 1 credit each" or "the last 3 cost about 4.3 credits". */
  basis: z.string(),
});
export type RecentCost = z.infer<typeof RecentCost>;

export const Price = z.discriminatedUnion('published', [
  z.object({ published: z.literal(true), credits: z.number().nonnegative(), basis: z.string() }),
  z.object({ published: z.literal(false), note: z.string(), recent: RecentCost.nullable() }),
]);
export type Price = z.infer<typeof Price>;

/** A charge this connection paid, as the ledger (or the live session record) knows it. */
export interface PastCharge {
  action: PaidAction;
  credits: number;
  at: number;
}

/** The mean of the latest charges of one action, or null when there are none. */
export function recentCost(action: PaidAction, history: readonly PastCharge[]): RecentCost | null {
  const latest = history
    .filter((c) => c.action === action && Number.isFinite(c.credits) && c.credits >= 0)
    .sort((a, b) => b.at - a.at)
    .slice(0, RECENT_CHARGES);
  if (latest.length === 0) return null;
  const mean = Math.round((latest.reduce((sum, c) => sum + c.credits, 0) / latest.length) * 10) / 10;
  const same = latest.every((c) => c.credits === latest[0].credits);
  const noun = latest.length === 1 ? 'the last one' : `the last ${latest.length}`;
  const basis = same
    ? `${noun} cost ${creditsText(mean)}${latest.length === 1 ? '' : ' each'}`
    : `${noun} cost about ${creditsText(mean)} each`;
  return { count: latest.length, credits: mean, basis };
}

/**
 * The price of one action: the published figure where the service gives one (`figure`: the model
 * list's price, else the job-kind registry's table), otherwise the honest unknown with the recent guide.
 */
export function priceOf(action: PaidAction, figure: CostEstimate | null, history: readonly PastCharge[]): Price {
  if (figure) return { published: true, credits: figure.credits, basis: figure.basis };
  return { published: false, note: UNPUBLISHED_NOTE, recent: recentCost(action, history) };
}

/** The price of a job from its body alone (the registry's table), for callers without the model list. */
export function jobPrice(kind: JobKind, body: unknown, history: readonly PastCharge[]): Price {
  return priceOf(
    kind,
    (JOB_KIND_REGISTRY[kind] as { estimate(b: unknown): CostEstimate | null }).estimate(body),
    history,
  );
}

/** Several actions asked about at once (a batch): what is known in total, and what is not. */
export interface PriceTotal {
  count: number;
  /** The sum of the published prices. */
  published: number;
  /** How many have no published price. */
  unpublished: number;
  /** The published sum plus the recent guide for the unpublished ones; null when some have no guide. */
  likely: number | null;
}

export function totalPrice(prices: readonly Price[]): PriceTotal {
  let published = 0;
  let unpublished = 0;
  let guessed = 0;
  let unguessed = 0;
  for (const price of prices) {
    if (price.published) published += price.credits;
    else {
      unpublished += 1;
      if (price.recent) guessed += price.recent.credits;
      else unguessed += 1;
    }
  }
  return {
    count: prices.length,
    published,
    unpublished,
    likely: unguessed > 0 ? null : Math.round((published + guessed) * 10) / 10,
  };
}

/** Several prices asked as one question (a batch): published only when every one of them is. */
export function combinedPrice(prices: readonly Price[], label: string): Price {
  const total = totalPrice(prices);
  if (total.unpublished === 0) return { published: true, credits: total.published, basis: describeTotal(total, label) };
  const recent =
    total.likely !== null
      ? {
          count: total.count,
          credits: total.likely,
          basis: `judging by this connection's recent charges, ${prices.length} would cost about ${creditsText(total.likely)}`,
        }
      : null;
  return { published: false, note: describeTotal(total, label), recent };
}

/**
 * The figure a spending limit counts for an action: the published price, else the recent guide; null when
 * neither exists (an unpublished price this connection was never charged): nobody can say it ahead.
 */
export function expectedCredits(price: Price): number | null {
  return price.published ? price.credits : (price.recent?.credits ?? null);
}

/** Whether a day's limit can be checked before sending: not for a price nobody can say ahead. */
export function limitCheckableAhead(price: Price): boolean {
  return expectedCredits(price) !== null;
}

/** One line for a dialog, the command line or a log: "30 credits (12 s at 720p: …)" or the honest unknown. */
export function describePrice(price: Price): string {
  if (price.published) return `${creditsText(price.credits)} (${price.basis})`;
  return price.recent ? `${price.note} On this connection ${price.recent.basis}.` : price.note;
}

export function describeTotal(total: PriceTotal, label: string): string {
  const n = `${total.count} × ${label.toLowerCase()}`;
  if (total.unpublished === 0) return `${n}: ${creditsText(total.published)} in total.`;
  const known = total.published > 0 ? ` ${creditsText(total.published)} of it is published.` : '';
  const likely =
    total.likely !== null
      ? ` Judging by this connection's recent charges, about ${creditsText(total.likely)} in total.`
      : '';
  return `${n}: ${UNPUBLISHED_NOTE}${known}${likely}`;
}

export function creditsText(n: number): string {
  return `${n.toLocaleString('en-US')} credit${n === 1 ? '' : 's'}`;
}

// ---- confirmations: the proof a paid create carries that someone agreed to pay ----

export const PaidConfirmation = z.discriminatedUnion('by', [
  /** A user answered a question that named `credits` (null: it said the price is not published). */
  z.object({ by: z.literal('user'), credits: z.number().nonnegative().nullable() }),
  /** The user set "do not ask under N credits" and this published price is under it. */
  z.object({ by: z.literal('limit'), credits: z.number().nonnegative() }),
  /** A script said --yes (or gave a limit the price is within). */
  z.object({ by: z.literal('script') }),
  /** A row of a batch (or of a campaign: batchId is the campaign's id) whose total the user confirmed when starting it. */
  z.object({ by: z.literal('batch'), batchId: z.string().min(1).max(200) }),
]);
export type PaidConfirmation = z.infer<typeof PaidConfirmation>;

/** What the user chose about money, per data folder; daily limits per connection. */
export const SpendingPolicy = z.object({
  /** Do not ask about a published price up to this many credits (null: always ask). */
  skipQuestionUnder: z.number().nonnegative().nullable().default(null),
  /** Credits per calendar day per connection id; past it a create is refused. */
  dailyLimits: z.record(z.string(), z.number().nonnegative()).default({}),
});
export type SpendingPolicy = z.infer<typeof SpendingPolicy>;

/**
 * Why a create may not go out as confirmed, or null when it may. The price the engine computes now is
 * compared with the one the user agreed to: a changed price is asked again, never paid silently.
 */
export function confirmationRefusal(
  action: PaidAction,
  price: Price,
  confirmation: PaidConfirmation | undefined,
  policy: Pick<SpendingPolicy, 'skipQuestionUnder'>,
  purposeBatch: string | null = null,
): string | null {
  const what = `${PAID_ACTION_LABELS[action]} (${describePrice(price)})`;
  if (!confirmation)
    return `${what} creates paid work and was not confirmed: the studio asks before paying, and a script passes --yes.`;
  switch (confirmation.by) {
    case 'script':
      return null;
    case 'batch':
      // Only a batch's own rows ride on the total the user confirmed when starting it.
      return purposeBatch === confirmation.batchId
        ? null
        : `${what} claims batch ${confirmation.batchId}'s confirmation but is not one of its rows; confirm it.`;
    case 'limit': {
      const under = policy.skipQuestionUnder;
      if (!price.published)
        return `${what} has no published price, so it cannot go out unasked under a limit; confirm it.`;
      if (under === null || price.credits > under)
        return `${what} is over the ${under === null ? 'unset' : creditsText(under)} limit for sending without asking; confirm it.`;
      if (confirmation.credits !== price.credits)
        return `The price is now ${describePrice(price)}, not ${creditsText(confirmation.credits)}; confirm it again.`;
      return null;
    }
    case 'user':
      if (price.published && confirmation.credits !== price.credits) {
        return `The price is now ${describePrice(price)}, not ${confirmation.credits === null ? 'unpublished' : creditsText(confirmation.credits)} as confirmed; confirm it again.`;
      }
      if (!price.published && confirmation.credits !== null)
        return `${what}: the confirmed ${creditsText(confirmation.credits)} is no longer the service's published price; confirm it again.`;
      return null;
  }
}

/** The start of the calendar day (local time of the host) holding `now`. */
export function dayStart(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Why the day's spending limit refuses this price, or null. `spent`: what today's actions on the connection cost or are expected to. */
export function dailyLimitRefusal(
  limit: number | undefined,
  spent: number,
  price: Price,
  connectionName: string,
): string | null {
  if (limit === undefined) return null;
  const next = expectedCredits(price);
  // A price nobody can say ahead is not counted as free: it may go only while some of the day's limit is
  // left, and its charge counts against the limit once the service takes it.
  if (next === null ? spent < limit : spent + next <= limit) return null;
  const cost =
    next === null
      ? 'a price the service does not publish (this connection has no charge to judge it by), and nothing of the limit is left'
      : price.published
        ? creditsText(next)
        : `about ${creditsText(next)} (judging by recent charges)`;
  return `Today's spending limit for "${connectionName}" is ${creditsText(limit)}; ${creditsText(Math.round(spent * 10) / 10)} are spent or on their way, and this costs ${cost}. Nothing was sent. Raise the limit in Settings, or wait until tomorrow.`;
}
