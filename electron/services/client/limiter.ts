/**
 * The one place a connection's requests are held to the service's rate. The transport asks it for a turn
 * before every attempt leaves (creates and polls alike) and tells it how the service answered, so a 1005
 * ("too frequent") is learned here and nowhere else. The host picks the backend: in memory for one process
 * (`MemoryLimiter`, which learns the rate from the refusals), or in Redis for every worker of a queue
 * (`RedisLimiter`, the account's rate shared and a refusal holding them all).
 */
export interface RequestLimiter {
  /**
   * Resolves at this request's turn with the turn's time, on the limiter's own clock (the same time goes
   * back in `refused`). Rejects when `signal` aborts the wait.
   */
  turn(signal?: AbortSignal): Promise<number>;
  /** The service answered the request with anything but a refusal. */
  answered(): void;
  /** The service refused the request whose turn was `at` as too frequent (1005); resolves once the others are told. */
  refused(at: number): Promise<void>;
  /**
   * Whether the rate is what holds requests back now: a turn given within the last window waited for others
   * ahead of it (Scarcity). Polls then go later, as a poll that finds its job unfinished takes a turn a
   * create needed (jobs/job-timing.ts).
   */
  scarce(): boolean;
}

/**
 * How long a turn must have waited to say the rate binds: several requests ahead of it, not two requests
 * that happened to ask in the same few milliseconds.
 */
const SCARCE_WAIT_MS = 100;

/** The last turn that waited, kept for a window: what `RequestLimiter.scarce` answers from, in both backends. */
export class Scarcity {
  private waitedAt = -Infinity;

  constructor(
    private readonly now: () => number,
    private readonly windowMs: number,
  ) {}

  /** A turn was given, to come `waitMs` after it was asked for: scarce until a window after it comes. */
  given(waitMs: number): void {
    if (waitMs > SCARCE_WAIT_MS) this.waitedAt = Math.max(this.waitedAt, this.now() + waitMs);
  }

  scarce(): boolean {
    return this.now() - this.waitedAt < this.windowMs;
  }
}
