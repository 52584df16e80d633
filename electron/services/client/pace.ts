import type { Sleep } from './backoff';

/**
 * Paces one connection's requests once the service has rate-limited it (code 1005): each refusal
 * doubles the gap between request starts, and successes shorten it slowly, back to none. Every
 * request of the connection (creates and polls alike) takes its turn here, so a thousand-row batch
 * settles just under the service's limit instead of a storm of refusals and retries.
 */
export class RequestPace {
  private gapMs = 0;
  private nextAt = 0;
  private raisedAt = -Infinity;

  constructor(
    private readonly now: () => number,
    private readonly firstGapMs = 50,
    private readonly maxGapMs = 5_000,
  ) {}

  /** This request's turn: null (go now, without yielding) while the service has not refused anything. */
  take(sleep: Sleep, signal?: AbortSignal): Promise<void> | null {
    if (this.gapMs === 0) return null;
    const now = this.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + this.gapMs;
    return at > now ? sleep(at - now, signal) : null;
  }

  /**
   * Requests sent together are refused together: only the first refusal after a change of pace
   * counts, the others were sent at the old pace.
   */
  refused(): void {
    const now = this.now();
    if (now - this.raisedAt < Math.max(this.gapMs, 250)) return;
    this.raisedAt = now;
    this.gapMs = this.gapMs === 0 ? this.firstGapMs : Math.min(this.maxGapMs, this.gapMs * 2);
  }

  /** Back towards full speed slowly (a 64th per success), so refusals stay rare once the pace is found. */
  succeeded(): void {
    if (this.gapMs === 0) return;
    this.gapMs = this.gapMs < 2 ? 0 : this.gapMs - this.gapMs / 64;
  }

  /** The current gap between request starts (0: not pacing). */
  get gap(): number {
    return this.gapMs;
  }
}
