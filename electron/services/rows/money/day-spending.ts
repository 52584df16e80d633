import type { Redis } from 'ioredis';
import {
  DAY_UNITS as UNITS,
  toDayUnits as toUnits,
  type DaySpending,
  type Reservation,
  type SpendDay,
} from '../../jobs/day-spending';

// Check and add in one Lua script: Redis runs it whole, so no other worker's reserve comes between.
const RESERVE = `
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local add = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local unknown = ARGV[3] == '1'
if (unknown and spent >= limit) or (not unknown and spent + add > limit) then return {0, spent} end
spent = redis.call('INCRBY', KEYS[1], add)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, spent}
`;

/** Two days and a little: a day's counter outlives every time zone's version of that day. */
const KEEP_MS = 50 * 3_600_000;

/** The day's counter in Redis, shared by every worker of the queue (jobs/day-spending.ts says what it keeps). */
export class RedisDaySpending implements DaySpending {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'studio',
  ) {}

  async reserve(day: SpendDay, credits: number | null, limit: number): Promise<Reservation> {
    const [admitted, spent] = (await this.redis.eval(
      RESERVE,
      1,
      this.key(day),
      String(toUnits(credits ?? 0)),
      String(toUnits(limit)),
      credits === null ? '1' : '0',
      String(KEEP_MS),
    )) as [number, number];
    return { admitted: admitted === 1, spent: spent / UNITS };
  }

  async add(day: SpendDay, credits: number): Promise<number> {
    const key = this.key(day);
    const [[, total]] = (await this.redis.multi().incrby(key, toUnits(credits)).pexpire(key, KEEP_MS).exec()) as [
      [unknown, number],
    ];
    return total / UNITS;
  }

  async spent(day: SpendDay): Promise<number> {
    return Number((await this.redis.get(this.key(day))) ?? '0') / UNITS;
  }

  private key(day: SpendDay): string {
    return `${this.prefix}:spent:${encodeURIComponent(day.connectionId)}:${day.day}`;
  }
}
