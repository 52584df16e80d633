/**
 * Injected faults are counted, never drawn at random: a rate r fails the occasions where the running
 * sum of r reaches a whole number (0.25 fails the 4th, 8th, 12th ...; 0.08 the 13th, 25th ...). The
 * same requests in the same order meet the same faults, so a test that sends enough requests always
 * sees its fault, and a rate still reads as "this fraction of requests" on the command line.
 */
export class FaultCounter {
  private owed = 0;

  /** Counts one occasion at `rate` (0..1); true when this one is to fail. */
  next(rate: number): boolean {
    if (rate <= 0) return false;
    this.owed += rate;
    // The tolerance keeps sums such as 0.1 x 10 (0.9999999999999999) on the whole number they mean.
    if (this.owed < 1 - 1e-9) return false;
    this.owed -= 1;
    return true;
  }
}

/** The sandbox's fault settings; the control route and `setFaults` change them while it runs. */
export interface FaultRates {
  failRate: number;
  latencyMs: number;
  http5xxRate: number;
  dropRate: number;
  tooFrequentRate: number;
  dropAfterCreateRate: number;
  /** Callbacks not sent at all. */
  callbackLostRate?: number;
  /** Callbacks sent twice, the same body each time (a service retrying one it thinks was not received). */
  callbackDuplicateRate?: number;
  /** Callbacks sent `callbackDelayMs` late (default 2 s). */
  callbackDelayRate?: number;
  callbackDelayMs?: number;
  /** Callbacks out of order: a processing callback held until after the job's end, or sent again after it. */
  callbackReorderRate?: number;
  /**
   * Callbacks preceded by a forgery: a body changed on the way (a completed event with a link of the
   * forger's, encrypted as the service would) under the signature of the genuine one.
   */
  callbackForgedRate?: number;
}

/** What happens to one callback; several may at once. */
export interface CallbackFaults {
  lost: boolean;
  duplicated: boolean;
  delayed: boolean;
  reordered: boolean;
  forged: boolean;
}

/** One counter per kind of fault, so one kind's occasions never shift another's. */
export class Faults {
  private readonly drops = new FaultCounter();
  private readonly unavailable = new FaultCounter();
  private readonly createDrops = new FaultCounter();
  private readonly tooFrequent = new FaultCounter();
  private readonly failures = new FaultCounter();
  private readonly callbackCounters = {
    lost: new FaultCounter(),
    duplicated: new FaultCounter(),
    delayed: new FaultCounter(),
    reordered: new FaultCounter(),
    forged: new FaultCounter(),
  };

  private letJobsEnd: (() => void) | null = null;
  private jobsMayEnd: Promise<void> = Promise.resolve();

  constructor(readonly rates: FaultRates) {}

  /**
   * Holds every job at processing until turned off (a test's control, not a fault of the service): rows
   * then stay under way as they start, so a test reaches a number of them however fast the machine is.
   */
  holdJobs(on: boolean): void {
    if (on && !this.letJobsEnd) this.jobsMayEnd = new Promise((resolve) => (this.letJobsEnd = resolve));
    if (!on && this.letJobsEnd) {
      this.letJobsEnd();
      this.letJobsEnd = null;
    }
  }

  get holding(): boolean {
    return this.letJobsEnd !== null;
  }

  /** Settles once jobs may end; null while they are not held. */
  whenJobsMayEnd(): Promise<void> | null {
    return this.letJobsEnd ? this.jobsMayEnd : null;
  }

  dropRequest(): boolean {
    return this.drops.next(this.rates.dropRate);
  }

  answer503(): boolean {
    return this.unavailable.next(this.rates.http5xxRate);
  }

  answer1005(): boolean {
    return this.tooFrequent.next(this.rates.tooFrequentRate);
  }

  dropAfterCreate(): boolean {
    return this.createDrops.next(this.rates.dropAfterCreateRate);
  }

  failJob(): boolean {
    return this.failures.next(this.rates.failRate);
  }

  /** The faults one callback meets, each kind counted on its own. */
  callbackFaults(): CallbackFaults {
    const c = this.callbackCounters;
    const r = this.rates;
    return {
      lost: c.lost.next(r.callbackLostRate ?? 0),
      duplicated: c.duplicated.next(r.callbackDuplicateRate ?? 0),
      delayed: c.delayed.next(r.callbackDelayRate ?? 0),
      reordered: c.reordered.next(r.callbackReorderRate ?? 0),
      forged: c.forged.next(r.callbackForgedRate ?? 0),
    };
  }
}
