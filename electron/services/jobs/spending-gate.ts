import type { CostEstimate, JobKind, JobRecord, JobSubmission, PriceQuote, QuoteItem } from '../../common/bridge/jobs';
import {
  combinedPrice,
  confirmationRefusal,
  dailyLimitRefusal,
  PAID_ACTION_LABELS,
  priceOf,
  SpendingPolicy,
  type PaidAction,
  type PaidConfirmation,
  type PastCharge,
  type Price,
} from '../../common/jobs/cost-model';
import { StudioError } from '../host/errors';
import type { Clock } from '../client/clock';
import { chargeHistory, CreateLocks, spentToday } from './paid-gate';
import { kindEntry } from './kinds';

export interface SpendingGateDeps {
  clock: Clock;
  /** The connection new jobs go to. */
  activeConnection(): Promise<{ id: string; name: string }>;
  /** The ledger's records now (charges, today's spending). */
  records(): Iterable<JobRecord>;
  /** A price from the service's own list (the AI model list) where it has one; else the kind's estimate. */
  estimator?(kind: JobKind, body: Record<string, unknown>): Promise<CostEstimate | null>;
  /** What the user chose about money. Default: always ask, no limit. */
  spending?(): SpendingPolicy;
  /** The connection's credit balance now (quota/info); null where the service does not answer it. */
  balance?(connectionId: string): Promise<number | null>;
}

/** What one create cost, measured from the balance read just before and just after it. */
export interface MeasuredCreate<T> {
  result: T;
  balanceBefore: number | null;
  balanceAfter: number | null;
  /** The drop in balance, or null where either read failed (or the balance rose). */
  charged: number | null;
}

/**
 * Money as a property of the job engine rather than of a screen: prices (published, or the honest
 * unknown with this connection's recent charges), the question's quote, the refusal of anything paid
 * that nobody agreed to or that passes the day's limit, and the balance read around each create.
 */
export class SpendingGate {
  private readonly createLocks = new CreateLocks();
  /** Charges the ledger does not hold (live sessions), by connection: they count in guides and the day's total. */
  private otherCharges: (connectionId: string) => PastCharge[] = () => [];

  constructor(private readonly deps: SpendingGateDeps) {}

  policy(): SpendingPolicy {
    return this.deps.spending?.() ?? SpendingPolicy.parse({});
  }

  /** Adds charges the ledger does not hold (live sessions) to the guides and the day's total. */
  countCharges(source: (connectionId: string) => PastCharge[]): void {
    const earlier = this.otherCharges;
    this.otherCharges = (id) => [...earlier(id), ...source(id)];
  }

  /** The price of a job on a connection: the service's published figure, else the honest unknown with this connection's recent charges. */
  async price(kind: JobKind, body: Record<string, unknown>, connectionId: string): Promise<Price> {
    // A list that cannot be read now does not stop the job: the kind's own estimate stands in.
    const listed = await this.deps.estimator?.(kind, body).catch(() => null);
    return priceOf(kind, listed ?? kindEntry(kind).estimate(body), chargeHistory(this.deps.records(), connectionId));
  }

  /** What a confirmation shows: each line's price on the active connection, its balance read now and today's limit. */
  async quote(items: readonly QuoteItem[]): Promise<PriceQuote> {
    const connection = await this.deps.activeConnection();
    const others = this.otherCharges(connection.id);
    const history = [...chargeHistory(this.deps.records(), connection.id), ...others];
    const priced = await Promise.all(
      items.map(async (item) => {
        const price =
          item.action === 'live-session'
            ? priceOf('live-session', null, history)
            : await this.price(item.action, item.body ?? {}, connection.id);
        return { action: item.action, count: item.count ?? 1, price };
      }),
    );
    const balance = (await this.deps.balance?.(connection.id).catch(() => null)) ?? null;
    const policy = this.policy();
    const now = this.deps.clock.now();
    return {
      items: priced,
      connectionId: connection.id,
      connectionName: connection.name,
      balance,
      balanceAt: now,
      dailyLimit: policy.dailyLimits[connection.id] ?? null,
      spentToday: spentToday(this.deps.records(), connection.id, now, others),
      skipQuestionUnder: policy.skipQuestionUnder,
    };
  }

  /**
   * Refuses (StudioError) unless `confirmation` covers `count` of an action at today's price and the day's
   * limit has room: for work that is confirmed once and sent later as several creates (a batch) or that
   * is not a job of the ledger (a live session).
   */
  async requireConfirmed(
    action: PaidAction,
    count: number,
    confirmation: PaidConfirmation | undefined,
  ): Promise<Price> {
    const quote = await this.quote([{ action, count }]);
    const [item] = quote.items;
    const price =
      count === 1
        ? item.price
        : combinedPrice(
            Array.from({ length: count }, () => item.price),
            PAID_ACTION_LABELS[action],
          );
    const unconfirmed = confirmationRefusal(action, price, confirmation, this.policy());
    if (unconfirmed) throw new StudioError(unconfirmed, 'confirmation-required');
    const overLimit = dailyLimitRefusal(quote.dailyLimit ?? undefined, quote.spentToday, price, quote.connectionName);
    if (overLimit) throw new StudioError(overLimit, 'spending-limit');
    return price;
  }

  /**
   * The price one create goes out at, or a refusal (StudioError) when it was not confirmed at that price
   * or passes the day's limit. Nothing paid leaves the engine without passing here.
   */
  async admit(submission: JobSubmission, connection: { id: string; name: string }): Promise<Price> {
    const price = await this.price(submission.kind, submission.body as Record<string, unknown>, connection.id);
    const policy = this.policy();
    // The type requires a confirmation; a caller outside TypeScript (a script's JSON) may still leave it out.
    const confirmation = submission.confirmation as PaidConfirmation | undefined;
    // A batch's rows, and a campaign's, ride on the total confirmed when it started.
    const purpose = submission.purpose;
    const rowOf =
      purpose?.type === 'batch-row' ? purpose.batchId : purpose?.type === 'campaign-row' ? purpose.campaignId : null;
    const unconfirmed = confirmationRefusal(submission.kind, price, confirmation, policy, rowOf);
    if (unconfirmed) throw new StudioError(unconfirmed, 'confirmation-required');
    const spent = spentToday(
      this.deps.records(),
      connection.id,
      this.deps.clock.now(),
      this.otherCharges(connection.id),
    );
    const overLimit = dailyLimitRefusal(policy.dailyLimits[connection.id], spent, price, connection.name);
    if (overLimit) throw new StudioError(overLimit, 'spending-limit');
    return price;
  }

  /**
   * Runs a create with the balance read just before and just after it, one create at a time per
   * connection, so the drop is that create's charge alone (from this process; another client of the
   * same account is the one case it cannot see). Without a balance source it just runs the create.
   */
  async measure<T>(connectionId: string, create: () => Promise<T>): Promise<MeasuredCreate<T>> {
    const balance = this.deps.balance;
    if (!balance) return { result: await create(), balanceBefore: null, balanceAfter: null, charged: null };
    return this.createLocks.run(connectionId, async () => {
      const balanceBefore = await balance(connectionId).catch(() => null);
      const result = await create();
      const balanceAfter = await balance(connectionId).catch(() => null);
      const charged =
        balanceBefore !== null && balanceAfter !== null && balanceBefore >= balanceAfter
          ? Math.round((balanceBefore - balanceAfter) * 100) / 100
          : null;
      return { result, balanceBefore, balanceAfter, charged };
    });
  }
}
