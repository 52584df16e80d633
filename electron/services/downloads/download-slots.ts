import PQueue from 'p-queue';

/**
 * The places for downloads moving bytes at once (the concurrency setting). A download holds its place
 * only while bytes arrive: the checks after the last byte (fsync, ffprobe, rename) let the next file
 * start meanwhile, and whenIdle() still waits for them.
 */
export class DownloadSlots {
  private readonly queue: PQueue;
  /** Every run under way, including those past their last byte that no longer hold a place. */
  private readonly runs = new Set<Promise<void>>();

  /** `concurrency`: the setting, read whenever work is added; absent means 3, and never below 1. */
  constructor(private readonly concurrency: () => number | undefined) {
    this.queue = new PQueue({ concurrency: this.wanted() });
  }

  /** Reads the setting again and applies it to the places from now on. */
  applyConcurrency(): void {
    const wanted = this.wanted();
    if (this.queue.concurrency !== wanted) this.queue.concurrency = wanted;
  }

  /** Queues a run; it holds its place until it calls `release` (after its last byte) or ends. */
  add(run: (release: () => void) => Promise<void>): void {
    this.applyConcurrency();
    void this.queue.add(
      () =>
        new Promise<void>((release) => {
          const running = run(release).finally(() => {
            release();
            this.runs.delete(running);
          });
          this.runs.add(running);
        }),
    );
  }

  /** Settles when nothing is queued or running, runs past their last byte included. */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.queue.onIdle();
      if (this.runs.size === 0) break;
      await Promise.all([...this.runs]);
    }
  }

  /** Starts nothing more and forgets what waits for a place (the queue's record still holds it). */
  close(): void {
    this.queue.pause();
    this.queue.clear();
  }

  private wanted(): number {
    return Math.max(1, this.concurrency() ?? 3);
  }
}
