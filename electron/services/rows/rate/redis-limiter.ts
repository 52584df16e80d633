import type { Redis } from 'ioredis';
import { Scarcity, type RequestLimiter } from '../../client/limiter';
import type { Logger } from '../../host/types';
import { redisScript } from '../redis-script';

// Reserves the next turn, in Redis's own clock (every worker's machine reads the same time): at once, or
// ARGV[2] / ARGV[1] ms after the turn before it, whichever is later. Turns evenly spaced keep any span of
// ARGV[2] ms to at most ARGV[1] of them without a burst for the service to queue up (a burst's last request
// is counted late, together with the next ones). Each request reserves once and sleeps until its turn,
// rather than polling for a free place. None while a hold is set (a 1005 answer). A worker that knows the
// rate publishes it (for a minute); one that does not (the studio that queued the run) takes the
// published one, or goes at once when none is. Answers {turn, now, the holds so far}, or {-1, hold left}.
const reserve = redisScript(
  'turns_reserve',
  `
local hold = redis.call('PTTL', KEYS[2])
if hold > 0 then return {-1, hold} end
local max = tonumber(ARGV[1])
local span = tonumber(ARGV[2])
if max > 0 then
  redis.call('SET', KEYS[3], max .. ' ' .. span, 'PX', 60000)
elseif max == 0 then
  local published = redis.call('GET', KEYS[3])
  if published then
    max = tonumber(string.match(published, '^(%d+)'))
    span = tonumber(string.match(published, ' (%d+)$'))
  end
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local holds = tonumber(redis.call('GET', KEYS[4]) or '0')
if max <= 0 then return {math.ceil(now), math.ceil(now), holds} end
local turn = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0') + span / max)
redis.call('SET', KEYS[1], string.format('%.3f', turn), 'PX', math.ceil(turn - now + span))
return {math.ceil(turn), math.ceil(now), holds}
`,
);

// After waiting for a reserved turn: whether it still stands (no hold since it was reserved).
const stillMine = redisScript(
  'turns_stillMine',
  `return tonumber(redis.call('GET', KEYS[1]) or '0') == tonumber(ARGV[1]) and 1 or 0`,
);

// A 1005 answer: every worker waits a second, and the turns reserved beyond now are taken back (their
// holders reserve again once the hold ends, from where it ended) so that they do not crowd the second
// after it. Answers when the hold began, rounded up to the millisecond as turns are: rounded down, a turn
// a fraction of a millisecond before the hold read as one inside it.
const hold = redisScript(
  'turns_hold',
  `
redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
redis.call('INCR', KEYS[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
redis.call('SET', KEYS[1], string.format('%.3f', now), 'PX', ARGV[1])
return math.ceil(now)
`,
);

/**
 * How much later than its turn a request may reach the service: a busy machine's event loop and the
 * network between them. The turns keep any span of a second and this within the rate, so such delays
 * do not crowd a second at the service (a 1005 costs every worker a second). 30 ms was too little: at
 * 10,000 rows on 2 cores, 0.16% of requests were refused (docs/scale-out.md).
 */
export const TURN_LATENESS_MS = 60;

const HOLD_MS = 1_000;

export interface RedisLimiterOptions {
  /**
   * The requests a second the account allows, when known: every worker's requests share it. 'published':
   * the rate a worker that knows it published (the studio that queued the run); none published, no turns.
   * null: no turns, only the hold a refusal sets.
   */
  perSecond: number | 'published' | null;
  prefix?: string;
  log?: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** This machine's clock, steady (a wall clock set forward would wake requests early); tests make a turn arrive late. */
  now?: () => number;
  /** Told of each hold this process set (a 1005 it was answered), with its length: the queue holds its takes too. */
  held?: (ms: number) => void;
}

/** Turns in a row given back for arriving late, before one is used however late: a busy machine still sends. */
const MOST_GIVEN_BACK = 3;

/**
 * Where Redis's clock falls on this machine's: the quickest recent trip of an answer. The two clocks
 * differ by a constant, which the trip takes in; a slower trip is the time this process's busy event
 * loop (a collection, a file written) kept the answer waiting.
 */
export class RedisClock {
  private readonly trips: number[] = [];

  /** Notes an answer Redis gave at `redisNow` that this process saw at `seenAt`. */
  seen(redisNow: number, seenAt: number): void {
    this.trips.push(seenAt - redisNow);
    if (this.trips.length > 256) this.trips.shift();
  }

  /** A time on Redis's clock, on this machine's. */
  local(redisTime: number): number {
    return redisTime + Math.min(...this.trips);
  }
}

/**
 * The request limiter of every worker on a queue: one account's requests (creates and polls alike) take
 * turns in Redis, so any span of a second and TURN_LATENESS_MS holds at most the rate's requests, wherever
 * it falls and whichever worker sends. A row is one BullMQ job of several requests, so BullMQ's limiter
 * (which counts job starts) cannot keep the rate for requests. A 1005 answer to any worker holds every
 * worker's requests for a second, and this worker's queue its takes (`held`). Nothing is learned in this
 * process: the rate is the one given, and the refusal is Redis's to share.
 */
export class RedisLimiter implements RequestLimiter {
  private readonly rate: { max: number; span: number } | null;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly keys: [string, string, string, string];
  private readonly clock = new RedisClock();
  private readonly now: () => number;
  private readonly scarcity: Scarcity;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisLimiterOptions,
  ) {
    const perSecond = options.perSecond;
    if (typeof perSecond === 'number' && !(Math.floor(perSecond) >= 1))
      throw new Error(`A shared rate must be at least 1 request a second (given ${perSecond}).`);
    this.rate = typeof perSecond === 'number' ? { max: Math.floor(perSecond), span: 1000 + TURN_LATENESS_MS } : null;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? (() => performance.now());
    const prefix = options.prefix ?? 'studio';
    // Over the service's window, which a hold lasts.
    this.scarcity = new Scarcity(this.now, HOLD_MS);
    this.keys = [`${prefix}:turns`, `${prefix}:turns:hold`, `${prefix}:turns:rate`, `${prefix}:turns:holds`];
  }

  /**
   * Waits for this request's turn (at once when no rate is shared and nothing holds the workers); answers
   * its time on Redis's clock. A turn that reached this process more than TURN_LATENESS_MS late is given
   * back unused: sent now, it would land in the service's second together with the turns after it. Redis
   * out of reach: the request goes now rather than the worker stopping.
   */
  async turn(): Promise<number> {
    try {
      return await this.take();
    } catch (error) {
      this.options.log?.warn('a shared turn could not be taken', { error: String(error) });
      return 0;
    }
  }

  answered(): void {}

  /** Seen from this worker's own turns: each reservation says how far the account's line reaches. */
  scarce(): boolean {
    return this.scarcity.scarce();
  }

  /** A 1005 answer: every worker's requests wait a second (the service's window), and this worker's queue its takes. */
  async refused(): Promise<void> {
    await this.hold().catch(() => undefined);
    this.options.held?.(HOLD_MS);
  }

  /** Reserves and waits for a turn; answers its time on Redis's clock. */
  private async take(): Promise<number> {
    // 0: the published rate (none published: no turns); -1: no turns at all, only the hold.
    const { max, span } = this.rate ?? { max: this.options.perSecond === 'published' ? 0 : -1, span: 1000 };
    let givenBack = 0;
    for (;;) {
      const [turn, redisNow, holds] = (await reserve(this.redis, this.keys, [max, span])) as [number, number, number?];
      if (turn < 0) {
        // Held after a refusal: the rate binds as surely as when turns queue.
        this.scarcity.given(redisNow);
        await this.sleep(redisNow);
        continue;
      }
      this.clock.seen(redisNow, this.now());
      this.scarcity.given(turn - redisNow);
      const at = this.clock.local(turn);
      if (turn > redisNow) {
        await this.sleep(Math.max(0, at - this.now()));
        // Taken back by a hold: reserve again once it ends.
        if (Number(await stillMine(this.redis, [this.keys[3]], [holds ?? 0])) === 0) continue;
      }
      if (this.rate && this.now() - at > TURN_LATENESS_MS && givenBack < MOST_GIVEN_BACK) {
        givenBack += 1;
        continue;
      }
      return turn;
    }
  }

  /** Sets the hold every worker waits out; answers when it began, on Redis's clock. */
  async hold(): Promise<number> {
    return Number(await hold(this.redis, this.keys, [HOLD_MS]));
  }
}
