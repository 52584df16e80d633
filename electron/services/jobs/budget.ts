/**
 * The one budget of bulk work: rows' whole prices, held in pools (an account's, a run's) before each row
 * starts, checked and held in one step so two holders (two rows, two studios) cannot both take the last
 * credits under a bound. A row's creates then go on the strength of its hold: nothing checks money per
 * create for it. Only the spending gate (RowHolds) holds on it.
 */
export interface Budget {
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

/** The budget of this process alone: the default, where one host sends every create. */
export class InProcessBudget implements Budget {
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
