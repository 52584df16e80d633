import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  BUDGET_UNITS as UNITS,
  toBudgetUnits as toUnits,
  type Budget,
  type RowBound,
  type RowHoldAnswer,
} from '../../jobs/budget';
import { redisScript } from '../redis-script';

// Holds a row on every pool (KEYS: one hash each, row -> "units holder"; units -1: a price nobody can say)
// if each bound has room beside the rows held there, checked and held in one script. A row of a holder
// whose life key (ARGV[2] .. holder) has lapsed is a dead process's: dropped, not counted. ARGV: holder,
// life key prefix, life, how long a pool outlives its last hold, row, units, number of bounds, then each
// bound's pool (an index into KEYS) and room in units ('' for none). Answers {1}, or {0, bound index,
// room left beside the rows held, how many rows, 1 if the bound has a room else 0}.
const holdRow = redisScript(
  'budget_holdRow',
  `
local me = ARGV[1]
local alive = {}
local function live(holder)
  if holder == me then return true end
  if alive[holder] == nil then alive[holder] = redis.call('EXISTS', ARGV[2] .. holder) == 1 end
  return alive[holder]
end
local units = tonumber(ARGV[6])
local sums, unknowns, besides = {}, {}, {}
for k = 1, #KEYS do
  local sum, unknown, beside = 0, false, 0
  local all = redis.call('HGETALL', KEYS[k])
  for i = 1, #all, 2 do
    local at = string.find(all[i + 1], ' ', 1, true)
    local held = tonumber(string.sub(all[i + 1], 1, at - 1))
    if not live(string.sub(all[i + 1], at + 1)) then redis.call('HDEL', KEYS[k], all[i])
    elseif all[i] ~= ARGV[5] then
      beside = beside + 1
      if held < 0 then unknown = true else sum = sum + held end
    end
  end
  sums[k], unknowns[k], besides[k] = sum, unknown, beside
end
for b = 1, tonumber(ARGV[7]) do
  local k = tonumber(ARGV[6 + 2 * b])
  local room = ARGV[7 + 2 * b]
  local free = nil
  if room ~= '' then free = tonumber(room) - sums[k] end
  local fits
  if units < 0 then fits = besides[k] == 0 and (free == nil or free > 0)
  else fits = (not unknowns[k]) and (free == nil or free >= units) end
  if not fits then return {0, b - 1, free or 0, besides[k], free and 1 or 0} end
end
for k = 1, #KEYS do
  redis.call('HSET', KEYS[k], ARGV[5], ARGV[6] .. ' ' .. me)
  redis.call('PEXPIRE', KEYS[k], ARGV[4])
end
redis.call('SET', ARGV[2] .. me, '1', 'PX', ARGV[3])
return {1}
`,
);

// Whether a row is held in its run's pool (KEYS[1]), and by whom. Held by a living holder: {1}. Held by a
// holder whose life lapsed (a studio gone with the row handed over): the row is taken over, written in
// every pool (KEYS) in this holder's name (ARGV: row, holder, life key prefix, life, pool keep): {2}. Not
// held (never, or let go): {0}.
const heldOrTaken = redisScript(
  'budget_heldOrTaken',
  `
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then return 0 end
local at = string.find(held, ' ', 1, true)
local holder = string.sub(held, at + 1)
if holder == ARGV[2] or redis.call('EXISTS', ARGV[3] .. holder) == 1 then return 1 end
for k = 1, #KEYS do
  redis.call('HSET', KEYS[k], ARGV[1], string.sub(held, 1, at) .. ARGV[2])
  redis.call('PEXPIRE', KEYS[k], ARGV[5])
end
redis.call('SET', ARGV[3] .. ARGV[2], '1', 'PX', ARGV[4])
return 2
`,
);

/**
 * How long a holder's rows outlive its last sign of life: a studio SIGKILLed with rows held frees them
 * within it. A live one renews its life every third of it while it holds any row.
 */
const LIFE_MS = 30_000;

const unitsOf = (credits: number | null): string => (credits === null ? '-1' : String(toUnits(credits)));

/** How long a pool outlives its last hold: a queued run paused for a week keeps its rows' pools. */
const KEEP_MS = 7 * 24 * 3_600_000;

/**
 * The budget in Redis, shared by every studio and worker of the queue (jobs/budget.ts says what it keeps).
 * Its keys name an account (by its proof) or a run, never a secret.
 */
export class RedisBudget implements Budget {
  /** This budget's rows are held in its name: one per process, so each process's rows lapse with it. */
  private readonly holder = randomUUID();
  /** The rows this process holds, each with its price (units) and pools: written again as its life is renewed. */
  private readonly held = new Map<string, { units: string; pools: readonly string[] }>();
  private renewing: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'studio',
    private readonly lifeMs = LIFE_MS,
  ) {}

  async hold(row: string, credits: number | null, bounds: readonly RowBound[]): Promise<RowHoldAnswer> {
    const pools = [...new Set(bounds.map((b) => b.pool))];
    const each = bounds.flatMap((b) => [
      String(pools.indexOf(b.pool) + 1),
      b.room === null ? '' : String(toUnits(b.room)),
    ]);
    const answer = (await holdRow(
      this.redis,
      pools.map((pool) => this.pool(pool)),
      [
        this.holder,
        this.lives(),
        String(this.lifeMs),
        String(KEEP_MS),
        row,
        unitsOf(credits),
        String(bounds.length),
        ...each,
      ],
    )) as number[];
    if (answer[0] === 1) return (this.hasHeld(row, unitsOf(credits), pools), { held: true });
    const [, bound, free, beside, bounded] = answer;
    return { held: false, bound, free: bounded === 1 ? free / UNITS : null, beside };
  }

  async keep(row: string, credits: number | null, pools: readonly string[]): Promise<void> {
    const write = this.redis.multi();
    for (const pool of pools)
      write.hset(this.pool(pool), row, `${unitsOf(credits)} ${this.holder}`).pexpire(this.pool(pool), KEEP_MS);
    await write.set(this.lives() + this.holder, '1', 'PX', this.lifeMs).exec();
    this.hasHeld(row, unitsOf(credits), pools);
  }

  async release(row: string, pools: readonly string[]): Promise<void> {
    this.held.delete(row);
    if (this.held.size === 0 && this.renewing) {
      clearInterval(this.renewing);
      this.renewing = null;
    }
    const write = this.redis.multi();
    for (const pool of pools) write.hdel(this.pool(pool), row);
    await write.exec();
  }

  /**
   * Whether a row is held in its run's pool (`pools[0]`; the others are its other pools): a worker makes
   * a queued row only on the strength of the hold its studio took. A hold whose holder died (the studio
   * gone, the row already handed over) is taken over in this holder's name, so the row still counts in
   * every pool while it is made ('taken': release it once made); a row never held or let go is not.
   */
  async heldOrTaken(row: string, pools: readonly string[]): Promise<'held' | 'taken' | null> {
    const answer = (await heldOrTaken(
      this.redis,
      pools.map((pool) => this.pool(pool)),
      [row, this.holder, this.lives(), String(this.lifeMs), String(KEEP_MS)],
    )) as number;
    if (answer === 0) return null;
    if (answer === 1) return 'held';
    const units = (await this.redis.hget(this.pool(pools[0]), row))?.split(' ')[0] ?? '0';
    this.hasHeld(row, units, pools);
    return 'taken';
  }

  /**
   * A row held: the holder's life is renewed while it holds any, and its rows written again with it, so
   * rows dropped while Redis was away past their life (its data lost, or another holder's hold found the
   * life lapsed) stand again for the workers that read them.
   */
  private hasHeld(row: string, units: string, pools: readonly string[]): void {
    this.held.set(row, { units, pools });
    if (this.renewing) return;
    this.renewing = setInterval(() => {
      // One HSET a pool with every row of it: a studio holds a queued run's rows ahead of its workers (a
      // thousand and more), and a command a row was most of the Redis commands it sent.
      const fields = new Map<string, string[]>();
      for (const [each, { units: price, pools: where }] of this.held)
        for (const pool of where) {
          const ofPool = fields.get(pool) ?? [];
          fields.set(pool, ofPool);
          ofPool.push(each, `${price} ${this.holder}`);
        }
      const write = this.redis.multi();
      for (const [pool, pairs] of fields) write.hset(this.pool(pool), ...pairs);
      write
        .set(this.lives() + this.holder, '1', 'PX', this.lifeMs)
        .exec()
        .catch(() => undefined);
    }, this.lifeMs / 3);
    this.renewing.unref?.();
  }

  /** Where each holder's life key is (its id follows): an id, never a secret. */
  private lives(): string {
    return `${this.prefix}:budget:holder:`;
  }

  private pool(pool: string): string {
    return this.key(`rows:${pool}`);
  }

  private key(key: string): string {
    return `${this.prefix}:budget:${encodeURIComponent(key)}`;
  }
}
