import type { Clock } from '../../client/clock';

/** A connection's balance now, or null where the service does not say it. */
export type BudgetReader = (connectionId: string) => Promise<number | null>;

/** Room left under the day's limit (on the connection) and under the run's cap, as the ledger says now (null: none set). */
export interface BudgetLooks {
  dayRoom(): number | null;
  capRoom(): number | null;
}

/** Why a row may not start now. */
export type BudgetRefusal = 'balance' | 'daily-limit' | 'cap';

export type BudgetAnswer = { ok: true } | { ok: false; reason: BudgetRefusal; short: number };

interface Reservation {
  connection: string;
  run: string;
  /** The row's whole expected price (null: nobody can say it yet; it goes alone). */
  credits: number | null;
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
 * row's voiceovers and its video) can be reserved against the balance as last read, the day's limit and
 * the run's cap, beside the rows already reserved. A reservation is held until its row ends, whatever its
 * steps were charged meanwhile, and then counts as spent until the next look (the balance is never taken
 * as free before the service says so): a tight balance makes whole rows and stops with none half paid.
 * A row whose price nobody can say yet goes alone on its connection (nothing else under way before or
 * after it); its charges then price the rest.
 */
export class RowBudget {
  private readonly reserved = new Map<string, Reservation>();
  private readonly gauges = new Map<string, Gauge>();
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly clock: Clock;

  constructor(
    private readonly read: BudgetReader,
    private readonly options: { clock?: Clock; readingMs?: number } = {},
  ) {
    this.clock = options.clock ?? { now: () => Date.now() };
  }

  /**
   * Reserves a row's whole price when the balance, the day's limit and the run's cap all have room for it
   * beside the rows already reserved. Nothing is awaited between the check and the reserve.
   */
  reserve(connection: string, run: string, row: string, credits: number | null, looks: BudgetLooks): BudgetAnswer {
    if (this.reserved.has(row)) return { ok: true };
    const balance = this.gauge(`balance:${connection}`);
    const beside = [...this.reserved.values()].filter((r) => r.connection === connection);
    // A row nobody can price goes alone: nothing else under way on its connection, before or after it.
    if (beside.some((r) => r.credits === null) || (credits === null && beside.length > 0))
      return { ok: false, reason: 'balance', short: 0 };
    if (credits === null) {
      if (balance.room !== null && this.room(balance, connection) <= 0)
        return { ok: false, reason: 'balance', short: 0 };
    } else {
      const day = this.look(`day:${connection}`, looks.dayRoom);
      const cap = this.look(`cap:${run}`, looks.capRoom);
      const checks: [BudgetRefusal, number | null][] = [
        ['balance', balance.room === null ? null : this.room(balance, connection)],
        ['daily-limit', day.room === null ? null : this.room(day, connection)],
        ['cap', cap.room === null ? null : cap.room - cap.since - this.reservedCredits((r) => r.run === run)],
      ];
      for (const [reason, room] of checks)
        if (room !== null && room + 1e-9 < credits) return { ok: false, reason, short: credits - room };
    }
    this.reserved.set(row, { connection, run, credits });
    return { ok: true };
  }

  /** A row already under way (from before a restart): it goes on, so its price is held whatever the room. */
  keep(connection: string, run: string, row: string, credits: number | null): void {
    if (!this.reserved.has(row)) this.reserved.set(row, { connection, run, credits });
  }

  /**
   * The row ended or went back to waiting: its reservation goes. `spent`: it may have been charged, so
   * until the next look it counts as spent at its reservation.
   */
  release(row: string, spent: boolean): void {
    const held = this.reserved.get(row);
    if (!held) return;
    this.reserved.delete(row);
    if (!spent) return;
    // What a row of unknown price cost only the balance can say: no row starts before it is read again.
    const balance = this.gauges.get(`balance:${held.connection}`);
    if (held.credits === null && balance) balance.looked = false;
    if (held.credits === null) return;
    for (const key of [`balance:${held.connection}`, `day:${held.connection}`, `cap:${held.run}`]) {
      const gauge = this.gauges.get(key);
      if (gauge) gauge.since += held.credits;
    }
  }

  holds(row: string): boolean {
    return this.reserved.has(row);
  }

  /** Rows holding a reservation (on a connection, or of one run). */
  underWay(where: { connection?: string; run?: string }): number {
    let n = 0;
    for (const r of this.reserved.values())
      if (
        (where.connection === undefined || r.connection === where.connection) &&
        (where.run === undefined || r.run === where.run)
      )
        n += 1;
    return n;
  }

  /** Credits reserved by one run's rows under way. */
  reservedFor(run: string): number {
    return this.reservedCredits((r) => r.run === run);
  }

  /** The balance as last read less what ended since and what is reserved (null: not known). */
  free(connection: string): number | null {
    const balance = this.gauges.get(`balance:${connection}`);
    return !balance || balance.room === null ? null : this.room(balance, connection);
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

  private room(gauge: Gauge, connection: string): number {
    return (gauge.room ?? 0) - gauge.since - this.reservedCredits((r) => r.connection === connection);
  }

  private reservedCredits(match: (r: Reservation) => boolean): number {
    let sum = 0;
    for (const r of this.reserved.values()) if (match(r)) sum += r.credits ?? 0;
    return sum;
  }
}
