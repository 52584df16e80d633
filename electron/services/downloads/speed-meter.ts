/** Bytes per second over the last few seconds, for "2.1 MB/s, 12 s left". */
export class SpeedMeter {
  private readonly samples: { at: number; bytes: number }[] = [];

  constructor(
    private readonly now: () => number,
    private readonly windowMs = 3000,
  ) {}

  /** `received`: bytes received so far in this attempt (a running count). */
  sample(received: number): void {
    const at = this.now();
    const last = this.samples[this.samples.length - 1];
    // One sample per 100 ms is plenty, and keeps the list short at any speed.
    if (last && this.samples.length > 1 && at - this.samples[this.samples.length - 2].at < 100) last.bytes = received;
    else this.samples.push({ at, bytes: received });
    while (this.samples.length > 2 && at - this.samples[0].at > this.windowMs) this.samples.shift();
  }

  bytesPerSecond(): number | null {
    if (this.samples.length < 2) return null;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const ms = last.at - first.at;
    if (ms < 200 || last.bytes < first.bytes) return null;
    return ((last.bytes - first.bytes) * 1000) / ms;
  }
}
