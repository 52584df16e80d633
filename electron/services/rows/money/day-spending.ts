import type { Redis } from 'ioredis';

/** One connection's spending on one day (the caller's calendar day, `YYYY-MM-DD`). */
export interface SpendDay {
  connectionId: string;
  day: string;
}

export interface Reservation {
  admitted: boolean;
  /** The day's total after the reservation (or as it stood, when refused). */
  spent: number;
}

/**
 * The day's spending of a connection as one counter every worker checks and adds to in one step, so
 * two workers cannot both take the last credits under the daily limit. A create reserves its price
 * before it is sent; one refused before anything was made gives it back. A price nobody can say ahead
 * (`null`) goes only while some of the limit is left and reserves nothing (its charge is added once known).
 */
export interface DaySpending {
  reserve(day: SpendDay, credits: number | null, limit: number): Promise<Reservation>;
  /** Adds a charge learned afterwards, or gives back a reservation (a negative amount). */
  add(day: SpendDay, credits: number): Promise<number>;
  spent(day: SpendDay): Promise<number>;
}

/** Credits are kept in thousandths, so sums stay exact whole numbers in Redis. */
const UNITS = 1000;
const toUnits = (credits: number): number => Math.round(credits * UNITS);

const fits = (spent: number, credits: number | null, limit: number): boolean =>
  credits === null ? spent < limit : spent + credits <= limit;

/** The counter of this process alone: the default, where one host sends every create. */
export class InProcessDaySpending implements DaySpending {
  private readonly totals = new Map<string, number>();

  // No await between the check and the add: no other reserve of this process can come between them.
  async reserve(day: SpendDay, credits: number | null, limit: number): Promise<Reservation> {
    const spent = (this.totals.get(this.key(day)) ?? 0) / UNITS;
    if (!fits(spent, credits, limit)) return { admitted: false, spent };
    return { admitted: true, spent: this.addNow(day, credits ?? 0) };
  }

  async add(day: SpendDay, credits: number): Promise<number> {
    return this.addNow(day, credits);
  }

  private addNow(day: SpendDay, credits: number): number {
    const next = (this.totals.get(this.key(day)) ?? 0) + toUnits(credits);
    this.totals.set(this.key(day), next);
    return next / UNITS;
  }

  private key(day: SpendDay): string {
    return `${day.connectionId}/${day.day}`;
  }

  async spent(day: SpendDay): Promise<number> {
    return (this.totals.get(this.key(day)) ?? 0) / UNITS;
  }
}

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
