import type { JobKind, JobSubmission, PriceQuote, QuoteItem } from '../../common/bridge/jobs';
import type { PaidAction, PaidConfirmation, PastCharge, Price, SpendingPolicy } from '../../common/jobs/cost-model';
import { expectedCredits } from '../../common/jobs/cost-model';
import type { SpendingGate } from './spending-gate';
import type { JobEngineDeps } from './engine-types';

/** The job engine's answers about money: prices, quotes, confirmations, the day's policy and the balance. */
export abstract class EngineMoney {
  /** Prices, the quote, refusals of unconfirmed or over-limit creates, the creates on their way, the day's room. */
  abstract readonly spending: SpendingGate;
  protected abstract readonly deps: JobEngineDeps;

  /** The price of a job on a connection: the service's published figure, else the honest unknown with this connection's recent charges. */
  price(kind: JobKind, body: Record<string, unknown>, connectionId: string): Promise<Price> {
    return this.spending.price(kind, body, connectionId);
  }

  /** What a confirmation shows: each line's price on the active connection, its balance read now and today's limit. */
  quote(items: readonly QuoteItem[]): Promise<PriceQuote> {
    return this.spending.quote(items);
  }

  /** Refuses unless `confirmation` covers `count` of an action (a batch, a live session) at today's price within the day's limit. */
  requireConfirmed(action: PaidAction, count: number, confirmation: PaidConfirmation | undefined): Promise<Price> {
    return this.spending.requireConfirmed(action, count, confirmation);
  }

  /** Adds charges the ledger does not hold (live sessions) to the guides and the day's total. */
  countCharges(source: (connectionId: string) => PastCharge[]): void {
    this.spending.countCharges(source);
  }

  policy(): SpendingPolicy {
    return this.spending.policy();
  }

  /** A connection's credit balance now (default: the one new jobs go to); null where it cannot be read. */
  async balanceNow(connectionId?: string): Promise<{ connectionId: string; credits: number } | null> {
    const id = connectionId ?? (await this.deps.connections.active()).id;
    const credits = await this.deps.balance?.(id).catch(() => null);
    return credits === undefined || credits === null ? null : { connectionId: id, credits };
  }

  /** What a create is expected to cost on the active connection now: published, or its recent charges; null: unknown. */
  async expectedCredits(submission: Pick<JobSubmission, 'kind' | 'body'>): Promise<number | null> {
    const connection = await this.deps.connections.active();
    const body = submission.body as Record<string, unknown>;
    return expectedCredits(await this.spending.price(submission.kind, body, connection.id));
  }
}
