import type { Sleep } from './backoff';
import { Scarcity, type RequestLimiter } from './limiter';

export interface MemoryLimiterOptions {
  /** The span the service is assumed to count requests over (the sandbox counts one second). */
  windowMs?: number;
  /** Quiet time after a change of pace before the pace rises again; doubles each time a probe finds the same limit. */
  probeAfterMs?: number;
  maxProbeAfterMs?: number;
  /** The longest gap between request starts, however often the service refuses. */
  maxGapMs?: number;
}

/**
 * The limiter of one process (client/limiter.ts): paces one connection's requests once the service has
 * rate-limited it (code 1005), by learning the
 * limit instead of guessing it. At a refusal, the requests sent in the window before the refused one
 * (less those known refused) are what the service allows per window, give or take one: the pace
 * settles just under that ceiling (a fortieth, at least half a request, below it), with turns a gap
 * apart and never more in one window than that, so a thousand-row batch runs near the limit with
 * almost no refusals. After a quiet spell the pace rises above the ceiling in small, then doubling,
 * steps to find out whether the limit went up; a probe that finds the same limit waits twice as long
 * before the next one. A lone refusal just under the ceiling (requests bunched on their way) changes
 * nothing; refusals close together (a limit the window does not show) slow the pace by a tenth each,
 * back to the ceiling after two windows; a window clearly below the ceiling becomes the new ceiling. Every
 * request of the connection (creates and polls alike) takes its turn here, so polls and creates share
 * one budget.
 */
export class MemoryLimiter implements RequestLimiter {
  /** Requests per window; null: not pacing (the service never refused). */
  private rate: number | null = null;
  /** Requests the service accepted per window when it last refused. */
  private ceiling = 0;
  private nextAt = 0;
  /** Requests sent before this instant were sent at an older pace: their refusals say nothing new. */
  private changedAt = -Infinity;
  private raisedAt = -Infinity;
  /** The last refusal just under the ceiling. */
  private noiseAt = -Infinity;
  /** Turns given over the last two windows (times in order). */
  private readonly sent: number[] = [];
  /** Send times of refused requests over the last two windows. */
  private refusals: number[] = [];
  private readonly windowMs: number;
  private readonly firstProbeAfterMs: number;
  private readonly maxProbeAfterMs: number;
  private readonly minRate: number;
  private probeAfterMs: number;
  private probeStep = 0.5;
  private readonly scarcity: Scarcity;

  constructor(
    private readonly now: () => number,
    private readonly sleep: Sleep,
    options: MemoryLimiterOptions = {},
  ) {
    this.windowMs = options.windowMs ?? 1_000;
    this.firstProbeAfterMs = options.probeAfterMs ?? 5_000;
    this.maxProbeAfterMs = options.maxProbeAfterMs ?? 60_000;
    this.minRate = this.windowMs / (options.maxGapMs ?? 5_000);
    this.probeAfterMs = this.firstProbeAfterMs;
    this.scarcity = new Scarcity(now, this.windowMs);
  }

  /** Waits for this request's turn (without yielding when it is now); answers the turn's time. */
  async turn(signal?: AbortSignal): Promise<number> {
    const at = this.reserve();
    const now = this.now();
    if (at > now) await this.sleep(at - now, signal);
    return at;
  }

  /**
   * Reserves this request's turn and answers when it is (now, or later). Turns are a gap apart, and never more in one window than the pace allows, counting the requests sent
   * before the pace was known: after a burst the service refused, the next request waits until that
   * burst has left the service's window rather than being refused too.
   */
  reserve(): number {
    const now = this.now();
    while (this.sent.length > 0 && this.sent[0] <= now - 2 * this.windowMs) this.sent.shift();
    let at = now;
    if (this.rate !== null) {
      at = Math.max(now, this.nextAt);
      const allowed = Math.max(1, Math.ceil(this.rate));
      if (this.sent.length >= allowed) at = Math.max(at, this.sent[this.sent.length - allowed] + this.windowMs);
      this.nextAt = at + this.gap;
    }
    this.sent.push(at);
    this.scarcity.given(at - now);
    return at;
  }

  scarce(): boolean {
    return this.scarcity.scarce();
  }

  /** The service answered a request with anything but a refusal: the pace may rise. */
  answered(): void {
    if (this.rate === null) return;
    const now = this.now();
    if (now - this.raisedAt < this.windowMs) return;
    const settled = this.settle(this.ceiling);
    if (this.rate < settled) {
      // Back to just under the ceiling soon after a slow-down for one refusal.
      if (now - this.changedAt < 2 * this.windowMs) return;
      this.raisedAt = now;
      this.rate = Math.min(settled, this.rate * 1.1);
      return;
    }
    if (now - this.changedAt < this.probeAfterMs) return;
    this.raisedAt = now;
    // A full window above the ceiling without a refusal: the service allows what was sent (the window
    // holds whole requests).
    this.ceiling = Math.max(this.ceiling, Math.floor(this.rate));
    // Small steps while near the limit it found; each step that passes doubles the next, so a limit
    // that rose a lot is found in a few seconds.
    this.rate += this.probeStep;
    this.probeStep *= 2;
  }

  /** The service refused (1005) the request whose turn was at `sentAt`. */
  async refused(sentAt: number): Promise<void> {
    const now = this.now();
    this.refusals = this.refusals.filter((t) => t > now - 2 * this.windowMs);
    this.refusals.push(sentAt);
    if (sentAt < this.changedAt) return;
    // The count is the service's limit give or take one request: requests reach it a little earlier
    // or later than they were sent.
    const counted = Math.max(1, this.countAccepted(sentAt));
    if (this.rate === null) {
      this.ceiling = counted;
    } else if (counted < Math.min(this.ceiling - 2, 0.85 * this.ceiling)) {
      // The service now allows clearly fewer than it did.
      this.ceiling = counted;
      this.probeAfterMs = this.firstProbeAfterMs;
    } else if (this.rate > this.settle(this.ceiling)) {
      // A probe above the ceiling found the same limit: look again less often.
      this.probeAfterMs = Math.min(this.maxProbeAfterMs, this.probeAfterMs * 2);
    } else {
      // Refused just under the ceiling: timing noise (requests bunched on their way), or a limit the
      // window does not show. One such refusal changes nothing (its request is sent again later);
      // another within a few windows slows the pace by a tenth each time.
      const again = now - this.noiseAt < 5 * this.windowMs;
      this.noiseAt = now;
      if (!again) return;
      this.rate = Math.max(this.minRate, this.rate * 0.9);
      this.changed();
      return;
    }
    this.rate = Math.max(this.minRate, this.settle(this.ceiling));
    this.changed();
  }

  /** The current gap between request starts (0: not pacing). */
  get gap(): number {
    return this.rate === null ? 0 : this.windowMs / this.rate;
  }

  /** Requests per window the pace allows now (null: not pacing). */
  get perWindow(): number | null {
    return this.rate;
  }

  /** Just under the ceiling: a fortieth below it, at least half a request, and never under half of it. */
  private settle(ceiling: number): number {
    return Math.max(ceiling / 2, ceiling - Math.max(0.5, ceiling / 40));
  }

  /**
   * Requests sent in the window before the refused one and not known to be refused: the service took
   * them (it answers in order). Counting sends rather than answers keeps requests still on their way
   * in the count when answers are slow.
   */
  private countAccepted(sentAt: number): number {
    let n = 0;
    for (const t of this.sent) if (t > sentAt - this.windowMs && t < sentAt) n += 1;
    for (const t of this.refusals) if (t > sentAt - this.windowMs && t < sentAt) n -= 1;
    return Math.max(0, n);
  }

  /**
   * Requests already given a turn were given it at the old pace, and for one window more the service
   * still counts them: refusals until then say nothing about the new pace.
   */
  private changed(): void {
    this.changedAt = Math.max(this.now(), this.nextAt) + this.windowMs;
    this.probeStep = Math.max(0.5, this.ceiling / 40);
    this.raisedAt = this.changedAt;
  }
}
