import type { CostEstimate, JobKind, JobSubmission, PriceQuote, QuoteItem } from '../../common/bridge/jobs';
import {
  combinedPrice,
  confirmationRefusal,
  dailyLimitRefusal,
  expectedCredits,
  PAID_ACTION_LABELS,
  priceOf,
  recentCost,
  SpendingPolicy,
  type PaidAction,
  type PaidConfirmation,
  type PastCharge,
  type Price,
  type RecentCost,
} from '../../common/jobs/cost-model';
import { StudioError } from '../host/errors';
import type { Clock } from '../client/clock';
import { chargeHistory, spentToday, type ChargeFacts } from './paid-gate';
import { CreatesInFlight, type CreateTicket } from './creates-in-flight';
import { enterAccount, type SharedAccount } from './account-creates';
import { InProcessBudget, type Budget } from './budget';
import { kindEntry } from './kinds';
import { RowHolds } from './row-holds';

export interface SpendingGateDeps {
  clock: Clock;
  /** The connection new jobs go to. */
  activeConnection(): Promise<{ id: string; name: string }>;
  /** The ledger's records now (charges, today's spending), with what stands for those let go of from memory. */
  records(): Iterable<ChargeFacts>;
  /** A published price for a job on a connection (the model list; the built-in sandbox's list); else the kind's estimate. */
  estimator?(kind: JobKind, body: Record<string, unknown>, connectionId: string): Promise<CostEstimate | null>;
  /** What the user chose about money. Default: always ask, no limit. */
  spending?(): SpendingPolicy;
  /** The connection's credit balance now (quota/info); null where the service does not answer it. */
  balance?(connectionId: string): Promise<number | null>;
  /** The creates on their way on the whole account, where other processes send on it too (workers); none: this one alone. */
  account?: SharedAccount;
  /** The budget rows made here are held on (a worker's Redis); none: this process's own. */
  budget?: Budget;
  /** The budget a queue's runs hold their rows on, shared by every studio sending to it (its Redis). */
  queueBudget?(queue: string, run: string): Promise<Budget>;
  /** A connection's account as named on a shared budget (the same in every process, no secret); null: none. */
  accountName?(connectionId: string): Promise<string | null>;
}

/** What one create cost, measured from the balance read just before and just after it. */
export interface MeasuredCreate<T> {
  result: T;
  balanceBefore: number | null;
  balanceAfter: number | null;
  /** The drop in balance, or null where it was not measured, either read failed, or the balance rose. */
  charged: number | null;
}

/** A create let through: the price it goes out at, its place among the connection's creates on their way. */
export interface CreatePass {
  price: Price;
  /** Counted at its price until released: release it once the create's answer (or failure) is on its record. */
  ticket: CreateTicket;
  /** The balance is read around it (it goes alone, or it was made by hand while nothing else was being created). */
  measured: boolean;
}

/**
 * Money as a property of the job engine rather than of a screen: prices (published, or the honest
 * unknown with this connection's recent charges), the question's quote, the refusal of anything paid
 * that nobody agreed to or that passes the day's limit (counting the creates on their way at their
 * price), and the balance read around the few creates that are measured.
 */
export class SpendingGate {
  private readonly inFlight = new CreatesInFlight();
  /** Rows' whole prices, held before each row starts: the one place bulk work asks about money. */
  readonly rows: RowHolds;
  /** Connections whose balance could not be read around a create: their unknown prices no longer go alone. */
  private readonly unmeasurable = new Set<string>();
  /** Charges the ledger does not hold (live sessions), by connection: they count in guides and the day's total. */
  private otherCharges: (connectionId: string) => PastCharge[] = () => [];

  constructor(private readonly deps: SpendingGateDeps) {
    const own = deps.budget ?? new InProcessBudget();
    this.rows = new RowHolds({ own, queue: deps.queueBudget, account: deps.accountName });
  }

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
    return priceOf(kind, await this.figure(kind, body, connectionId), chargeHistory(this.deps.records(), connectionId));
  }

  /** What a job of its kind cost lately on its connection, by the charges on record (null: none yet). */
  recent(job: { kind: JobKind; connectionId: string }): RecentCost | null {
    return recentCost(job.kind, chargeHistory(this.deps.records(), job.connectionId));
  }

  /** The published figure for a job: the service's own list where it prices it, else the kind's table (or none). */
  private async figure(
    kind: JobKind,
    body: Record<string, unknown>,
    connectionId: string,
  ): Promise<CostEstimate | null> {
    // A list that cannot be read now does not stop the job: the kind's own estimate stands in.
    const listed = await this.deps.estimator?.(kind, body, connectionId).catch(() => null);
    return listed ?? kindEntry(kind).estimate(body);
  }

  /** What today's work on a connection cost or is expected to: answered jobs, creates on their way, live sessions. */
  private spent(connectionId: string, now: number): number {
    return (
      spentToday(this.deps.records(), connectionId, now, this.otherCharges(connectionId)) +
      this.inFlight.counted(connectionId)
    );
  }

  /** Credits left under today's limit on a connection (today's jobs and the creates on their way counted); null: no limit. */
  dayRoom(connectionId: string): number | null {
    const limit = this.policy().dailyLimits[connectionId];
    return limit === undefined || limit === null ? null : limit - this.spent(connectionId, this.deps.clock.now());
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
      spentToday: this.spent(connection.id, now),
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
   * Lets one create through, or refuses it (StudioError) when it was not confirmed at its price or would
   * pass the day's limit. Nothing paid leaves the engine without passing here. The limit is checked
   * against what today's jobs cost, the creates on their way at their price and this one's, and the
   * create is counted in the same step, so any number sent at once cannot pass the limit together. A
   * price nobody can say ahead (not published, no charge of its kind on this connection to judge by)
   * goes alone with the balance read around it: the limit then knows what it cost before anything else
   * goes, and the next ones of its kind have a guide. A row's create (`rowHeld`) goes on the strength of
   * its row's hold (`rows`), which held the row's whole price within the balance, the day's limit and its
   * run's cap before the row started: it is counted on its way, and its money is not checked again.
   */
  async admit(
    submission: JobSubmission,
    connection: { id: string; name: string },
    rowHeld = false,
  ): Promise<CreatePass> {
    const body = submission.body as Record<string, unknown>;
    const figure = await this.figure(submission.kind, body, connection.id);
    const priceNow = () => priceOf(submission.kind, figure, chargeHistory(this.deps.records(), connection.id));
    let price = priceNow();
    const policy = this.policy();
    // The type requires a confirmation; a caller outside TypeScript (a script's JSON) may still leave it out.
    const confirmation = submission.confirmation as PaidConfirmation | undefined;
    // A batch's rows, and a campaign's, ride on the total confirmed when it started.
    const purpose = submission.purpose;
    const rowOf =
      purpose?.type === 'batch-row' ? purpose.batchId : purpose?.type === 'campaign-row' ? purpose.campaignId : null;
    const unconfirmed = confirmationRefusal(submission.kind, price, confirmation, policy, rowOf);
    if (unconfirmed) throw new StudioError(unconfirmed, 'confirmation-required');
    const measurable = this.deps.balance !== undefined && !this.unmeasurable.has(connection.id);
    const local = await this.inFlight.enter(connection.id, {
      alone: () => measurable && expectedCredits(priceNow()) === null,
      admit: (counted) => {
        // A create that waited may find a guide its kind lacked when it came.
        price = priceNow();
        // A held row's create is only counted on its way (a job made by hand meanwhile sees it).
        if (!rowHeld) this.withinDay(connection, price, counted);
        return expectedCredits(price) ?? 0;
      },
    });
    // Counted on the whole account too; one that goes alone holds the account's lease until it leaves.
    const ticket = await enterAccount(local, connection.id, this.deps.account);
    // A job made by hand, while nothing else is being created on its account, keeps its measured charge.
    const byHand = rowOf === null && confirmation?.by !== 'batch';
    return { price, ticket, measured: measurable && ticket.aloneAtStart && (ticket.alone || byHand) };
  }

  /** Refuses a create that would pass the day's limit, beside today's jobs and the creates on their way (`counted`). */
  private withinDay(connection: { id: string; name: string }, price: Price, counted: number): void {
    const spent =
      spentToday(this.deps.records(), connection.id, this.deps.clock.now(), this.otherCharges(connection.id)) + counted;
    const overLimit = dailyLimitRefusal(this.policy().dailyLimits[connection.id], spent, price, connection.name);
    if (overLimit) throw new StudioError(overLimit, 'spending-limit');
  }

  /**
   * Sends a create, with the balance read just before and just after it when the pass says so. The drop
   * is that create's charge only when no other create was admitted meanwhile, in this process or (with a
   * shared record of the account's creates) in any other on the account; otherwise it is not kept.
   */
  async send<T>(pass: CreatePass, connectionId: string, create: () => Promise<T>): Promise<MeasuredCreate<T>> {
    const balance = this.deps.balance;
    if (!balance || !pass.measured)
      return { result: await create(), balanceBefore: null, balanceAfter: null, charged: null };
    const balanceBefore = await balance(connectionId).catch(() => null);
    const result = await create();
    const balanceAfter = await balance(connectionId).catch(() => null);
    if (balanceBefore === null || balanceAfter === null) this.unmeasurable.add(connectionId);
    if (!(await pass.ticket.undisturbed())) return { result, balanceBefore: null, balanceAfter: null, charged: null };
    const charged =
      balanceBefore !== null && balanceAfter !== null && balanceBefore >= balanceAfter
        ? Math.round((balanceBefore - balanceAfter) * 100) / 100
        : null;
    return { result, balanceBefore, balanceAfter, charged };
  }
}
