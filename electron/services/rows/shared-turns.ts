import type { Redis } from 'ioredis';
import { Code } from '../../common/api/error-codes';
import type { Logger } from '../host/types';
import { rowLimiter, type RowLimiter } from './row-limiter';

type Fetch = typeof globalThis.fetch;

// One turn in Redis's own clock (every worker's machine reads the same time): none while a hold is set
// (a 1005 answer), else a place in the current fixed window if it has one. A worker that knows the rate
// gives its windows (and keeps them published for a minute); one that does not (the studio that queued
// the run) takes the published ones, or goes at once when none are. Answers the wait in ms, or, granted,
// the turn's time negated.
const TAKE = `
local hold = redis.call('PTTL', KEYS[2])
if hold > 0 then return hold end
local max = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
if max > 0 then
  redis.call('SET', KEYS[3], max .. ' ' .. duration, 'PX', 60000)
elseif max == 0 then
  local published = redis.call('GET', KEYS[3])
  if published then
    max = tonumber(string.match(published, '^(%d+)'))
    duration = tonumber(string.match(published, ' (%d+)$'))
  end
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if max <= 0 then return -now end
local window = math.floor(now / duration)
local key = KEYS[1] .. ':' .. window
local taken = redis.call('INCR', key)
if taken == 1 then redis.call('PEXPIRE', key, duration * 2) end
if taken <= max then return -now end
return (window + 1) * duration - now
`;

/**
 * How much later than its turn a request may reach the service: a busy machine's event loop and the
 * network between them. The windows keep any span of a second and this within the rate, so such delays
 * do not crowd a second at the service (a 1005 costs every worker a second).
 */
export const TURN_LATENESS_MS = 30;

const HOLD_MS = 1_000;

export interface SharedTurnsOptions {
  /**
   * The requests a second the account allows, when known: every worker's requests share it. 'published':
   * the windows a worker that knows it published (the studio that queued the run); none published, no turns.
   */
  perSecond: number | 'published' | null;
  prefix?: string;
  log?: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** This machine's clock (tests make a turn arrive late). */
  now?: () => number;
}

/** Turns in a row given back for arriving late, before one is used however late: a busy machine still sends. */
const MOST_GIVEN_BACK = 3;

/**
 * How late a turn reached this process: its trip from Redis against the quickest of the recent ones. The
 * two machines' clocks differ by a constant, which cancels; what is left is the time this process's busy
 * event loop (a collection, a file written) kept the answer waiting.
 */
export class TurnLateness {
  private readonly trips: number[] = [];

  of(grantedAt: number, seenAt: number): number {
    const trip = seenAt - grantedAt;
    this.trips.push(trip);
    if (this.trips.length > 256) this.trips.shift();
    return trip - Math.min(...this.trips);
  }
}

/**
 * The service's rate shared by every worker on a queue, one connection's requests (creates and polls
 * alike) taking turns in Redis. BullMQ's limiter counts job starts, and a queued row is one job of
 * several requests, so the same fixed windows are kept for requests here, sized by `rowLimiter` so that a
 * burst at a window's edge still keeps any second within the rate. A 1005 answer to any worker holds
 * every worker's requests for a second. Each worker's own pace (client/pace.ts) still shapes its requests
 * within its turns.
 */
export class SharedTurns {
  private readonly limiter: RowLimiter | null;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly windowsKey: string;
  private readonly holdKey: string;
  private readonly publishedKey: string;
  private readonly lateness = new TurnLateness();
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    private readonly options: SharedTurnsOptions,
  ) {
    this.limiter =
      typeof options.perSecond === 'number' ? rowLimiter(options.perSecond, 1000 + TURN_LATENESS_MS) : null;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    const prefix = options.prefix ?? 'studio';
    this.windowsKey = `${prefix}:turns`;
    this.holdKey = `${prefix}:turns:hold`;
    this.publishedKey = `${prefix}:turns:windows`;
  }

  /**
   * Waits for this request's turn (at once when no rate is shared and nothing holds the workers); answers
   * its time. A turn that reached this process more than TURN_LATENESS_MS late is given back unused: sent
   * now, it would land in the service's second together with the turns granted after it.
   */
  async take(): Promise<number> {
    // 0: the published windows (none published: no turns); -1: no turns at all, only the hold.
    const { max, duration } = this.limiter ?? { max: this.options.perSecond === 'published' ? 0 : -1, duration: 1000 };
    let givenBack = 0;
    for (;;) {
      const keys = [this.windowsKey, this.holdKey, this.publishedKey];
      const answer = Number(await this.redis.eval(TAKE, 3, ...keys, max, duration));
      if (answer > 0) {
        await this.sleep(answer);
        continue;
      }
      const late = this.lateness.of(-answer, this.now());
      if (this.limiter && late > TURN_LATENESS_MS && givenBack < MOST_GIVEN_BACK) {
        givenBack += 1;
        continue;
      }
      return -answer;
    }
  }

  /** A 1005 answer: every worker's requests wait a second (the service's window) before the next. */
  async hold(): Promise<void> {
    await this.redis.set(this.holdKey, '1', 'PX', HOLD_MS);
  }

  /** A fetch whose every request takes its turn first, and whose 1005 answers hold every worker. */
  fetch(inner: Fetch = globalThis.fetch): Fetch {
    return async (input, init) => {
      await this.take().catch((error: unknown) => {
        // Redis out of reach: the request goes on its own pace rather than the worker stopping.
        this.options.log?.warn('a shared turn could not be taken', { error: String(error) });
      });
      const response = await inner(input, init);
      if (response.headers.get('content-type')?.includes('json')) {
        const body = (await response
          .clone()
          .json()
          .catch(() => null)) as { code?: unknown } | null;
        if (body?.code === Code.TooFrequent) await this.hold().catch(() => undefined);
      }
      return response;
    };
  }
}
