import { Transform, type Readable } from 'node:stream';

/**
 * One limit shared by every transfer: each chunk books its share of the time line at the current rate,
 * and waits until its slot comes. Up to a quarter second of bytes may pass at once, so a limit costs
 * no latency while under it. A rate read on each chunk makes a changed setting apply at once.
 */
export class SpeedLimit {
  private nextFree = 0;

  constructor(
    private readonly rate: () => number | null,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Milliseconds this many bytes must wait; 0 when no limit is set. */
  take(bytes: number): number {
    const rate = this.rate();
    if (!rate) return 0;
    const at = this.now();
    const slack = 250;
    this.nextFree = Math.max(this.nextFree, at - slack) + (bytes / rate) * 1000;
    return Math.max(0, this.nextFree - at - slack);
  }

  /** The body, slowed to the limit (the original when no limit is set when the transfer starts). */
  throttle(body: Readable): Readable {
    if (!this.rate()) return body;
    const take = (bytes: number) => this.take(bytes);
    const slowed = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        const wait = take(chunk.length);
        if (wait === 0) done(null, chunk);
        else setTimeout(() => done(null, chunk), wait);
      },
    });
    body.on('error', (error) => slowed.destroy(error));
    slowed.on('close', () => body.destroy());
    return body.pipe(slowed);
  }
}
