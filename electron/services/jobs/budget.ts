import type { JobRecord } from '../../common/bridge/jobs';
import { creditsText } from '../../common/jobs/cost-model';
import { StudioError } from '../host/errors';

export interface Reservation {
  admitted: boolean;
  /** The counter after the reservation (or as it stood, when refused), the records' base left out. */
  spent: number;
}

/**
 * The one budget of paid creates: counters, each named by a key (a day of a queue, a run's cap), that a
 * create reserves its price on before it is sent, in one step with the check, so two senders (two rows,
 * two workers) cannot both take the last credits under a bound. `base` is what the caller's records
 * already count against the bound outside the counter (a run's jobs in its ledger). A price nobody can
 * say ahead (`null`) goes only while some of the bound is left and reserves nothing. Only the spending
 * gate reserves on it.
 */
export interface Budget {
  reserve(key: string, credits: number | null, limit: number, base?: number): Promise<Reservation>;
  /** Adds a charge learned afterwards, or gives back a reservation (a negative amount). */
  add(key: string, credits: number): Promise<number>;
  spent(key: string): Promise<number>;
  /**
   * Holds a row's whole price (null: nobody can say it) on every bound's pool, or on none: each bound
   * must have room for it beside the rows every holder holds in its pool, checked and held in one step,
   * so two studios cannot both hold the last credits. A row of unknown price goes alone in its pools
   * (none beside it, none after it). Held until released; a dead holder's rows let go by themselves.
   */
  hold(row: string, credits: number | null, bounds: readonly RowBound[]): Promise<RowHoldAnswer>;
  /** A row already under way (a restart): held whatever the room. */
  keep(row: string, credits: number | null, pools: readonly string[]): Promise<void>;
  release(row: string, pools: readonly string[]): Promise<void>;
}

/** A bound a row's price is held against: the pool whose rows count against it, and its room beside them (null: none). */
export interface RowBound {
  pool: string;
  room: number | null;
}

/** Held, or refused at the first bound (its index) without room: what it had left beside the rows held, and how many there are. */
export type RowHoldAnswer = { held: true } | { held: false; bound: number; free: number | null; beside: number };

/** Credits are kept in thousandths, so sums stay exact whole numbers (in Redis too). */
export const BUDGET_UNITS = 1000;
export const toBudgetUnits = (credits: number): number => Math.round(credits * BUDGET_UNITS);

const fits = (spent: number, credits: number | null, limit: number): boolean =>
  credits === null ? spent < limit : spent + credits <= limit;

/** The budget of this process alone: the default, where one host sends every create. */
export class InProcessBudget implements Budget {
  private readonly totals = new Map<string, number>();

  // No await between the check and the add: no other reserve of this process can come between them.
  async reserve(key: string, credits: number | null, limit: number, base = 0): Promise<Reservation> {
    const spent = (this.totals.get(key) ?? 0) / BUDGET_UNITS;
    if (!fits(spent + base, credits, limit)) return { admitted: false, spent };
    return { admitted: true, spent: this.addNow(key, credits ?? 0) };
  }

  async add(key: string, credits: number): Promise<number> {
    return this.addNow(key, credits);
  }

  private addNow(key: string, credits: number): number {
    const next = (this.totals.get(key) ?? 0) + toBudgetUnits(credits);
    // A counter back at nothing is let go of: a session's runs do not stay counted.
    if (next === 0) this.totals.delete(key);
    else this.totals.set(key, next);
    return next / BUDGET_UNITS;
  }

  async spent(key: string): Promise<number> {
    return (this.totals.get(key) ?? 0) / BUDGET_UNITS;
  }

  // Rows held by pool, in units (-1: a price nobody can say). Again nothing is awaited between check and hold.
  private readonly pools = new Map<string, Map<string, number>>();

  async hold(row: string, credits: number | null, bounds: readonly RowBound[]): Promise<RowHoldAnswer> {
    const units = credits === null ? -1 : toBudgetUnits(credits);
    for (const [index, { pool, room }] of bounds.entries()) {
      const refused = refusal(this.pools.get(pool) ?? new Map<string, number>(), row, units, room);
      if (refused) return { held: false, bound: index, ...refused };
    }
    await this.keep(row, credits, [...new Set(bounds.map((b) => b.pool))]);
    return { held: true };
  }

  async keep(row: string, credits: number | null, pools: readonly string[]): Promise<void> {
    for (const pool of pools) {
      let rows = this.pools.get(pool);
      if (!rows) this.pools.set(pool, (rows = new Map()));
      rows.set(row, credits === null ? -1 : toBudgetUnits(credits));
    }
  }

  async release(row: string, pools: readonly string[]): Promise<void> {
    for (const pool of pools) {
      const rows = this.pools.get(pool);
      rows?.delete(row);
      if (rows?.size === 0) this.pools.delete(pool);
    }
  }
}

/** Why a row may not join a pool's rows under a room (what is left, how many rows beside), or null: it fits. */
function refusal(
  rows: ReadonlyMap<string, number>,
  row: string,
  units: number,
  room: number | null,
): { free: number | null; beside: number } | null {
  let sum = 0;
  let unknown = false;
  let beside = 0;
  for (const [other, held] of rows) {
    if (other === row) continue;
    beside += 1;
    if (held < 0) unknown = true;
    else sum += held;
  }
  const free = room === null ? Infinity : toBudgetUnits(room) - sum;
  const fits = units < 0 ? beside === 0 && free > 0 : !unknown && free >= units;
  return fits ? null : { free: room === null ? null : free / BUDGET_UNITS, beside };
}

/**
 * One bound a create is held to. With `base` (what this host's records count so far, read at the check),
 * the counter holds only this host's creates on their way: once answered, a job counts in the records,
 * so its reservation is given back at that moment. Without it the counter is the only count (shared by
 * workers whose records are their own), so a reservation is put right to the charge and kept.
 */
export interface SpendBound {
  key: string;
  limit: number;
  base?: () => number;
  /** Why a create that does not fit is refused (a StudioError whose code says which runs stop). */
  refusal(spent: number): StudioError;
}

/**
 * What a create holds on its bounds: put right once answered (null: nothing was made), once, as soon as
 * its record holds the answer (a counter of this process is put right before the call returns).
 */
export type BudgetHold = (job: Pick<JobRecord, 'phase' | 'remoteId' | 'chargedCredits'> | null) => Promise<void>;

/** Reserves a create's expected price on a bound, or throws the bound's refusal. */
export async function reserveOn(budget: Budget, bound: SpendBound, credits: number | null): Promise<BudgetHold> {
  const base = bound.base?.() ?? 0;
  const reserved = await budget.reserve(bound.key, credits, bound.limit, base);
  if (!reserved.admitted) throw bound.refusal(reserved.spent + base);
  let settled = false;
  return async (job) => {
    if (settled) return;
    settled = true;
    // Refused before anything was made (no job at the service): it cost nothing.
    const made = job !== null && !(job.phase === 'failed' && job.remoteId === null);
    const kept = made && !bound.base ? (job.chargedCredits ?? credits ?? 0) : 0;
    if (kept !== (credits ?? 0)) await budget.add(bound.key, kept - (credits ?? 0));
  };
}

/**
 * The day of the queue a run was sent to: one counter for every worker of it, whichever connection or
 * folder each has (the limit is the starting studio's, and travels with the run). Its refusal pauses the
 * runs on the connection.
 */
export function queueDay(limit: number, now: number): SpendBound {
  return {
    key: `day:queue:${new Date(now).toLocaleDateString('en-CA')}`,
    limit,
    refusal: (spent) =>
      new StudioError(
        `Today's spending limit of ${creditsText(limit)}, shared by every worker of the queue, was reached (${creditsText(spent)} spent). Nothing was sent.`,
        'spending-limit',
      ),
  };
}

/** The code of a refusal at a run's cap: that run pauses (the others on the connection go on). */
export const RUN_CAP = 'run-cap';

/**
 * A run's cap ("stop after N credits"). A run of this host counts its jobs in its ledger (`spent`); a
 * queued run's cap is one counter shared by every worker making its rows.
 */
export function runCap(run: string, limit: number, spent?: () => number): SpendBound {
  return {
    key: `cap:${run}`,
    limit,
    base: spent,
    refusal: () => new StudioError(`Its next create would pass the cap of ${creditsText(limit)}.`, RUN_CAP),
  };
}

/** A run's bounds on money, carried with each of its creates to the spending gate (RunStops says them). */
export interface RunBounds {
  /** A queued run's day's limit (its studio's): held on the day every worker of the queue shares. */
  dayLimit?: number | null;
  /** The run's cap, named by its run (a queued run's: every worker's rows of it); `spent` as runCap's. */
  cap?: { run: string; limit: number; spent?: () => number } | null;
}

/** The bounds a run's create is held to, in the order they are reserved (the run's own first). */
export function boundsOf({ dayLimit, cap }: RunBounds, now: number): SpendBound[] {
  return [
    ...(cap ? [runCap(cap.run, cap.limit, cap.spent)] : []),
    ...(dayLimit !== null && dayLimit !== undefined ? [queueDay(dayLimit, now)] : []),
  ];
}

/**
 * Reserves a create on every bound of its run, or on none: a refusal gives back what the bounds before it
 * took, and throws. The hold puts every reservation right once the create is answered. A bound counted
 * on this host's records (`base`) is this host's alone, so it is held on `local`; the others on `shared`.
 */
export async function reserveAll(
  { local, shared }: { local: Budget; shared: Budget },
  bounds: SpendBound[],
  credits: number | null,
): Promise<BudgetHold> {
  const holds: BudgetHold[] = [];
  try {
    for (const bound of bounds) holds.push(await reserveOn(bound.base ? local : shared, bound, credits));
  } catch (error) {
    await Promise.all(holds.map((hold) => hold(null)));
    throw error;
  }
  return async (job) => void (await Promise.all(holds.map((hold) => hold(job))));
}
