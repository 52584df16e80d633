import type { Logger } from '../host/types';

export interface RatePlacesDeps {
  /** The first pause after the service rate-limits a campaign (doubled while it keeps doing so). */
  backoffMs: number;
  /** How many rows of the campaign have a job at the service now. */
  atService(campaignId: string): number;
  /** Sends a row's refused step again. */
  resend(campaignId: string, row: number): void;
  /** Hands a wait to the runner's idle() (tests await it instead of sleeping). */
  track(wait: Promise<unknown>): void;
  log?: Logger;
}

/**
 * How many rows of a campaign may be at the service at once while it rate-limits us: each refusal halves
 * the places (down to one) and pauses new rows, the pause doubling up to a minute; the refused rows wait
 * ("parked") until the pause is over and fewer rows than the places are at the service. In memory only:
 * a restart tries the campaign's full number again.
 */
export class RatePlaces {
  private readonly places = new Map<string, { limit: number; backoffMs: number; until: number }>();
  private readonly parked = new Set<string>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** Ends the wait of each pending timer (stop() clears the timers). */
  private readonly resumers = new Set<() => void>();

  constructor(private readonly deps: RatePlacesDeps) {}

  /** The rows a campaign may have under way now, given its own concurrency. */
  limit(campaignId: string, concurrency: number): number {
    return Math.min(concurrency, this.places.get(campaignId)?.limit ?? concurrency);
  }

  /** True during the pause after a refusal: no new row starts. */
  pausing(campaignId: string): boolean {
    return (this.places.get(campaignId)?.until ?? 0) > Date.now();
  }

  /** The service refused a row's create: fewer places, a pause, then the row's step again. */
  refused(campaignId: string, row: number, concurrency: number): void {
    const places = this.places.get(campaignId) ?? { limit: concurrency, backoffMs: this.deps.backoffMs, until: 0 };
    places.limit = Math.max(1, Math.floor(places.limit / 2));
    places.until = Date.now() + places.backoffMs;
    const wait = places.backoffMs;
    places.backoffMs = Math.min(places.backoffMs * 2, 60_000);
    this.places.set(campaignId, places);
    this.deps.log?.info('the service is rate-limiting the campaign; sending fewer rows at once', {
      campaign: campaignId,
      places: places.limit,
      waitMs: wait,
    });
    let resume!: () => void;
    this.deps.track(new Promise<void>((resolve) => (resume = resolve)));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.resumers.delete(resume);
      this.parked.add(`${campaignId}:${row}`);
      this.unpark(campaignId);
      resume();
    }, wait);
    timer.unref?.();
    this.timers.add(timer);
    this.resumers.add(resume);
  }

  /** Sends one parked row's step again when fewer rows than the places are at the service (called as jobs end). */
  unpark(campaignId: string): void {
    const limit = this.places.get(campaignId)?.limit ?? 1;
    for (const key of [...this.parked]) {
      const at = key.lastIndexOf(':');
      if (key.slice(0, at) !== campaignId || this.deps.atService(campaignId) >= limit) continue;
      this.parked.delete(key);
      // It sends at once; the next parked row is looked at when a row's job ends.
      this.deps.resend(campaignId, Number(key.slice(at + 1)));
      return;
    }
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const resume of this.resumers) resume();
    this.resumers.clear();
  }
}
