import type { Redis } from 'ioredis';
import { Code } from '../../common/api/error-codes';
import type { Logger } from '../host/types';
import { rowLimiter, type RowLimiter } from './row-limiter';

type Fetch = typeof globalThis.fetch;

// One turn in Redis's own clock (every worker's machine reads the same time): none while a hold is set
// (a 1005 answer), else a place in the current fixed window if it has one. Answers the wait in ms, or,
// granted, the turn's time negated.
const TAKE = `
local hold = redis.call('PTTL', KEYS[2])
if hold > 0 then return hold end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local duration = tonumber(ARGV[2])
local window = math.floor(now / duration)
local key = KEYS[1] .. ':' .. window
local taken = redis.call('INCR', key)
if taken == 1 then redis.call('PEXPIRE', key, duration * 2) end
if taken <= tonumber(ARGV[1]) then return -now end
return (window + 1) * duration - now
`;

const HOLD_MS = 1_000;

export interface SharedTurnsOptions {
  /** The requests a second the account allows, when known: every worker's requests share it. Null: no turns. */
  perSecond: number | null;
  prefix?: string;
  log?: Logger;
  sleep?: (ms: number) => Promise<void>;
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

  constructor(
    private readonly redis: Redis,
    private readonly options: SharedTurnsOptions,
  ) {
    this.limiter = options.perSecond === null ? null : rowLimiter(options.perSecond);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    const prefix = options.prefix ?? 'studio';
    this.windowsKey = `${prefix}:turns`;
    this.holdKey = `${prefix}:turns:hold`;
  }

  /** Waits for this request's turn (at once when no rate is shared and nothing holds the workers); answers its time. */
  async take(): Promise<number> {
    const { max, duration } = this.limiter ?? { max: Number.MAX_SAFE_INTEGER, duration: 1000 };
    for (;;) {
      const answer = Number(await this.redis.eval(TAKE, 2, this.windowsKey, this.holdKey, max, duration));
      if (answer <= 0) return -answer;
      await this.sleep(answer);
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
