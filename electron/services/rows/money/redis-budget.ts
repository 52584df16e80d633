import type { Redis } from 'ioredis';
import { BUDGET_UNITS as UNITS, toBudgetUnits as toUnits, type Budget, type Reservation } from '../../jobs/budget';

// Check and add in one Lua script: Redis runs it whole, so no other worker's reserve comes between.
const RESERVE = `
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local add = tonumber(ARGV[1])
local limit = tonumber(ARGV[2]) - tonumber(ARGV[5])
local unknown = ARGV[3] == '1'
if (unknown and spent >= limit) or (not unknown and spent + add > limit) then return {0, spent} end
spent = redis.call('INCRBY', KEYS[1], add)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, spent}
`;

/**
 * How long a counter outlives its last use: a day's outlives every time zone's version of that day, and
 * a queued run's cap a pause of a week.
 */
const KEEP_MS = 7 * 24 * 3_600_000;

/**
 * The budget in Redis, shared by every worker of the queue (jobs/budget.ts says what it keeps). Its keys
 * name a day or a run, never a secret.
 */
export class RedisBudget implements Budget {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'studio',
  ) {}

  async reserve(key: string, credits: number | null, limit: number, base = 0): Promise<Reservation> {
    const [admitted, spent] = (await this.redis.eval(
      RESERVE,
      1,
      this.key(key),
      String(toUnits(credits ?? 0)),
      String(toUnits(limit)),
      credits === null ? '1' : '0',
      String(KEEP_MS),
      String(toUnits(base)),
    )) as [number, number];
    return { admitted: admitted === 1, spent: spent / UNITS };
  }

  async add(key: string, credits: number): Promise<number> {
    const at = this.key(key);
    const [[, total]] = (await this.redis.multi().incrby(at, toUnits(credits)).pexpire(at, KEEP_MS).exec()) as [
      [unknown, number],
    ];
    return total / UNITS;
  }

  async spent(key: string): Promise<number> {
    return Number((await this.redis.get(this.key(key))) ?? '0') / UNITS;
  }

  private key(key: string): string {
    return `${this.prefix}:budget:${encodeURIComponent(key)}`;
  }
}
