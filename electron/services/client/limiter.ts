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
}
