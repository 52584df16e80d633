import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AccountCreates, AccountEntry } from '../../jobs/account-creates';
import { redisScript } from '../redis-script';

// Enters a create on the account, on Redis's clock (every worker's machine reads the same time). KEYS: the
// creates on their way (a sorted set: id -> when it last said it was), the creates entered so far (a
// counter), the lease. ARGV: the create's id, '1' to take the lease, how old an entry may be before it is a
// dead process's, the lease's life, how long the keys are kept. Answers {1, entered so far, others on
// their way} once it is in; {0, the lease's time left} while another's lease holds; and for a lease, {0, 0}
// while others are still on their way: the lease is then held for it already, so nothing new enters meanwhile.
const enter = redisScript(
  'creates_enter',
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
local holder = redis.call('GET', KEYS[3])
if holder and holder ~= ARGV[1] then return {0, redis.call('PTTL', KEYS[3])} end
local others = redis.call('ZCARD', KEYS[1])
if ARGV[2] == '1' then
  redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[4])
  if others > 0 then return {0, 0} end
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
local entered = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {1, entered, others}
`,
);

// A create still on its way says so (a slow answer is not a dead process's), and keeps its lease.
const still = redisScript(
  'creates_still',
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return 1
`,
);

const leave = redisScript(
  'creates_leave',
  `
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
`,
);

/** How long things last on the account; a test makes them short. */
export interface AccountCreatesTimes {
  /** How often a create on its way says so. */
  renewMs: number;
  /** An entry not renewed for this long is a dead process's, and ignored. */
  staleMs: number;
  /** A lease whose holder died lapses within this; a live holder renews it. */
  leaseMs: number;
  /** A create that waits longer for the lease goes without it, unmeasured, rather than hold the account. */
  leaseWaitMs: number;
}

const TIMES: AccountCreatesTimes = { renewMs: 2_000, staleMs: 10_000, leaseMs: 6_000, leaseWaitMs: 20_000 };
/** A Redis that has not answered an entry within this (gone, or coming back) lets the create go unmeasured. */
const ANSWER_MS = 5_000;
const POLL_MS = 20;
/** An hour: a counter that outlives every create measured against it. */
const KEEP_MS = 3_600_000;

const UNSEEN: AccountEntry = { aloneAtStart: false, undisturbed: async () => false, leave: () => undefined };

export interface RedisAccountCreatesOptions {
  prefix?: string;
  sleep?: (ms: number) => Promise<void>;
  times?: Partial<AccountCreatesTimes>;
}

/**
 * The creates on their way on an account, in the queue's Redis, so every worker sending on the account
 * sees the others'. Keyed by the account's name (a proof of its credentials: the same in every worker,
 * never a secret), not by a connection's id, which each worker's folder has its own of. Each create counts
 * itself on its way and in a counter of creates entered; a create to be measured takes the lease, entering
 * once nothing else is on its way and holding the others back until it leaves. A dead worker blocks
 * nothing for long: its entries stop being renewed and its lease lapses.
 */
export class RedisAccountCreates implements AccountCreates {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly prefix: string;
  private readonly times: AccountCreatesTimes;

  constructor(
    private readonly redis: Redis,
    options: RedisAccountCreatesOptions = {},
  ) {
    this.prefix = options.prefix ?? 'studio';
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.times = { ...TIMES, ...options.times };
  }

  async enter(account: string, lease: boolean): Promise<AccountEntry> {
    const keys = this.keys(account);
    const { staleMs, leaseMs, leaseWaitMs } = this.times;
    const id = randomUUID();
    const since = Date.now();
    let leased = lease;
    try {
      for (;;) {
        const answer = await this.answered(
          enter(this.redis, keys, [id, leased ? '1' : '0', staleMs, leaseMs, KEEP_MS]),
        );
        if (answer === null) break;
        const [inside, entered, others] = answer as [number, number, number?];
        if (inside === 1) return this.entry(keys, id, entered, others === 0);
        if (leased && Date.now() - since > leaseWaitMs) {
          // The account never went quiet (a create stuck on its way): go beside the others, unmeasured.
          await this.answered(leave(this.redis, [keys[0], keys[2]], [id]));
          leased = false;
          continue;
        }
        // Asked again soon rather than at the lease's end: a lease ends when its create is answered.
        await this.sleep(POLL_MS);
      }
    } catch {
      // A Redis that refuses (or a script error) says nothing of the service: the create goes, unmeasured.
    }
    // An entry or lease Redis makes once it answers is taken back right after it (one connection keeps
    // the order); one never taken back lapses by itself.
    leave(this.redis, [keys[0], keys[2]], [id]).catch(() => undefined);
    return UNSEEN;
  }

  /** Redis's answer, or null once it kept the create waiting past ANSWER_MS. */
  private answered(work: Promise<unknown>): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_MS)));
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  private entry(keys: [string, string, string], id: string, entered: number, alone: boolean): AccountEntry {
    const renew = setInterval(() => {
      still(this.redis, [keys[0], keys[2]], [id, this.times.leaseMs]).catch(() => undefined);
    }, this.times.renewMs);
    renew.unref?.();
    let left = false;
    return {
      aloneAtStart: alone,
      undisturbed: async () => {
        const now = await this.answered(this.redis.get(keys[1])).catch(() => null);
        return now !== null && Number(now) === entered;
      },
      leave: () => {
        if (left) return;
        left = true;
        clearInterval(renew);
        // Not left (Redis away): the entry stops being renewed and is ignored, the lease lapses.
        leave(this.redis, [keys[0], keys[2]], [id]).catch(() => undefined);
      },
    };
  }

  private keys(account: string): [string, string, string] {
    const base = `${this.prefix}:creates:${encodeURIComponent(account)}`;
    return [`${base}:flight`, `${base}:entered`, `${base}:lease`];
  }
}
