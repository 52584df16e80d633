import type { Clock } from '../../client/clock';
import type { RowHoldOutcome, RowHolds, RowPlace } from '../../jobs/row-holds';

/** A connection's balance now, or null where the service does not say it. */
export type BudgetReader = (connectionId: string) => Promise<number | null>;

/** Room left under the day's limit (on the connection) and under the run's cap, as the ledger says now (null: none set). */
export interface BudgetLooks {
  dayRoom(): number | null;
  capRoom(): number | null;
}

/**
 * One bound on spending as last looked at: the room then (null: no bound), when, and what rows that
 * ended since have spent (their charges may not be in that look yet, so they count until the next).
 */
interface Gauge {
  room: number | null;
  at: number;
  since: number;
  looked: boolean;
}

/** How old a balance reading may be before the budget asks for a new one (in the background). */
export const BUDGET_READING_MS = 60_000;
/** How old a look at the ledger (today's spending, a run's) may be before it is looked at again. */
const LEDGER_LOOK_MS = 2_000;

/**
 * The one budget of bulk work: a row starts only when its whole expected price (every step: a campaign
 * row's voiceovers and its video) is held by the spending gate (`RowHolds`) beside every row held on its
 * account and run, within the balance as last read, the day's limit and the run's cap. A hold lasts
 * until its row ends, whatever its steps were charged meanwhile, and then counts as spent here until the
 * next look (the balance is never taken as free before the service says so): a tight balance makes
 * whole rows and stops with none half paid. A row whose price nobody can say yet goes alone on its
 * account (nothing else under way before or after it); its charges then price the rest. What is looked
 * at (the readings) is this process's; what is held is the gate's.
 */
export class RowBudget {
  private readonly gauges = new Map<string, Gauge>();
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly clock: Clock;

  constructor(
    private readonly read: BudgetReader,
    readonly holds: RowHolds,
    private readonly options: { clock?: Clock; readingMs?: number } = {},
  ) {
    this.clock = options.clock ?? { now: () => Date.now() };
  }

  /** Holds a row's whole price when the balance, the day's limit and the run's cap all have room for it beside the rows held. */
  reserve(place: RowPlace, credits: number | null, looks: BudgetLooks): Promise<RowHoldOutcome> {
    const left = (gauge: Gauge) => (gauge.room === null ? null : gauge.room - gauge.since);
    // A price nobody can say goes while some of each room is left: the hold is its creates' only check.
    return this.holds.hold(place, credits, () => ({
      balance: left(this.gauge(`balance:${place.connection}`)),
      day: left(this.look(`day:${place.connection}`, looks.dayRoom)),
      cap: left(this.look(`cap:${place.run}`, looks.capRoom)),
    }));
  }

  /**
   * The row ended or went back to waiting: its hold goes. `spent`: it may have been charged, so until the
   * next look it counts as spent at its price.
   */
  release(row: string, spent: boolean): void {
    const held = this.holds.release(row);
    if (!held || !spent) return;
    const { connection, run } = held.place;
    if (held.credits === null) {
      // What a row of unknown price cost only the balance and the ledger say: no row starts before they
      // are looked at again (its hold was its creates' only check against the day's limit and the cap).
      const balance = this.gauges.get(`balance:${connection}`);
      if (balance) balance.looked = false;
      return this.relook(connection, run);
    }
    for (const key of [`balance:${connection}`, `day:${connection}`, `cap:${run}`]) {
      const gauge = this.gauges.get(key);
      if (gauge) gauge.since += held.credits;
    }
  }

  /** Whether the connection's balance was read at or after `at` (a refusal on it is then the account's word). */
  readSince(connection: string, at: number): boolean {
    const balance = this.gauges.get(`balance:${connection}`);
    return !!balance?.looked && balance.at >= at;
  }

  /** Whether a balance reading is due (never read, or older than the budget keeps one). */
  stale(connection: string): boolean {
    const balance = this.gauge(`balance:${connection}`);
    return !balance.looked || this.clock.now() - balance.at > (this.options.readingMs ?? BUDGET_READING_MS);
  }

  /** The ledger's bounds (today's room, the run's cap) are looked at again at the next reserve. */
  relook(connection: string, run: string): void {
    for (const key of [`day:${connection}`, `cap:${run}`]) this.gauges.delete(key);
  }

  /** What was looked at for a connection and a run is looked at again (a top-up, a new limit or cap, then Resume). */
  forget(connection: string, run: string): void {
    for (const key of [`balance:${connection}`, `day:${connection}`, `cap:${run}`]) this.gauges.delete(key);
  }

  /**
   * Reads the balance again (one request; asks meanwhile share it). Rows that end while it is read count
   * as spent after it, so a reading never frees their charges twice.
   */
  refresh(connection: string): Promise<void> {
    const key = `balance:${connection}`;
    let going = this.refreshing.get(key);
    if (!going) {
      const balance = this.gauge(key);
      const askedAt = this.clock.now();
      const spentBefore = balance.since;
      going = this.read(connection)
        .catch(() => null)
        .then((credits) => {
          Object.assign(balance, { room: credits, at: askedAt, since: balance.since - spentBefore, looked: true });
        })
        .finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, going);
    }
    return going;
  }

  private gauge(key: string): Gauge {
    let gauge = this.gauges.get(key);
    if (!gauge) {
      gauge = { room: null, at: 0, since: 0, looked: false };
      this.gauges.set(key, gauge);
    }
    return gauge;
  }

  /** A bound the ledger says (today's spending, a run's): looked at again once older than a moment. */
  private look(key: string, room: () => number | null): Gauge {
    const gauge = this.gauge(key);
    const now = this.clock.now();
    if (!gauge.looked || now - gauge.at > LEDGER_LOOK_MS)
      Object.assign(gauge, { room: room(), at: now, since: 0, looked: true });
    return gauge;
  }
}
