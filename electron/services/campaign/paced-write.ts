import { pauseAfter } from '../../common/campaign/pause-after';

export interface PacedWriteDeps<T> {
  write(value: T): Promise<unknown>;
  /** Times each write (tests say how long one took, whatever the machine). */
  clock?: () => number;
  /** A write that threw: reported here, and the next value is written all the same. */
  failed?(error: unknown): void;
  /** How many times as long as the last write the pause after it is (pauseAfter); a watched status's by default. */
  perWrite?: number;
}

/** The value waiting to be written, and who waits for it to be on disk. */
interface Waiting<T> {
  value: T;
  /** Asked for at once (a finish, a cancel): no pause is sat out before it. */
  urgent: boolean;
  written: Promise<void>;
  markWritten(): void;
}

/**
 * One file rewritten from the newest value, one write at a time, at a pace that follows the cost of a
 * write: a value set after a write that took d ms is written `perWrite`·d later (at least 1 s, at most
 * 30 s), and every value set meanwhile replaces it, so however fast values come only the newest is written at that pace. `now`
 * and `settle` (a quit) never sit out a pause: what waits is written at once.
 */
export class PacedWrite<T> {
  private waiting: Waiting<T> | null = null;
  private running: Promise<void> | null = null;
  /** How long the last write took; null before the first, which goes at once (each after it waits, pauseAfter). */
  private lastWriteMs: number | null = null;
  /** Callers of `settle` under way: until they are done, no pause is sat out. */
  private settling = 0;
  private endPause: (() => void) | null = null;

  constructor(private readonly deps: PacedWriteDeps<T>) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Whether a value waits to be written: a value set now joins it. */
  get waits(): boolean {
    return this.waiting !== null;
  }

  /** The newest value, written after the pause the last write calls for; resolves once it (or a newer one) is written. */
  set(value: T): Promise<void> {
    if (this.waiting) this.waiting.value = value;
    else {
      let markWritten = (): void => undefined;
      const written = new Promise<void>((resolve) => {
        markWritten = resolve;
      });
      this.waiting = { value, urgent: false, written, markWritten };
    }
    // A microtask later, so values set in the same turn go in one write.
    this.running ??= Promise.resolve().then(() => this.drain());
    return this.waiting.written;
  }

  /** Written at once, cutting short a pause under way (after a write under way); resolves once it is written. */
  now(value: T): Promise<void> {
    const written = this.set(value);
    if (this.waiting) this.waiting.urgent = true;
    this.endPause?.();
    return written;
  }

  /** Writes what waits without pausing, and resolves once nothing waits and no write is under way. */
  async settle(): Promise<void> {
    this.settling += 1;
    try {
      while (this.running) {
        this.endPause?.();
        await this.running;
      }
    } finally {
      this.settling -= 1;
    }
  }

  private async drain(): Promise<void> {
    for (let next = this.waiting; next; next = this.waiting) {
      if (!next.urgent && this.settling === 0)
        await this.pause(this.lastWriteMs === null ? 0 : pauseAfter(this.lastWriteMs, this.deps.perWrite));
      // Taken as it is after the pause: values set during it are in it, values set from here on wait.
      this.waiting = null;
      const started = this.clock();
      try {
        await this.deps.write(next.value);
      } catch (error) {
        this.deps.failed?.(error);
      }
      this.lastWriteMs = this.clock() - started;
      next.markWritten();
    }
    // In the same turn as the last look at `waiting`: a value set after it starts another drain.
    this.running = null;
  }

  private pause(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.endPause?.(), ms);
      this.endPause = () => {
        clearTimeout(timer);
        this.endPause = null;
        resolve();
      };
    });
  }

  private clock(): number {
    return (this.deps.clock ?? (() => performance.now()))();
  }
}
