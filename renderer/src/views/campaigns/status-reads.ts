// The open campaign's status, read one read at a time. A 100,000-row campaign's status takes the host about
// half a second to sum, and a running campaign changes several times a second: read at every change, the
// page kept the host's thread busy with nothing else while it was open. A read the user asked for (opening
// a campaign, an action on it) goes as soon as the one under way ends; a read a change asked for waits
// pauseAfter(the last read's length) from the last read's end, as the command line's progress line does.
// Changes meanwhile share one read, and it is never dropped: the page always ends on the newest status.
import { pauseAfter } from '@common/campaign/pause-after';

export interface StatusReadsDeps<T> {
  read(id: string): Promise<T>;
  /** A read's answer, in the order the reads were made. */
  shown(id: string, status: T): void;
  failed(error: unknown): void;
  /** Times each read (tests say how long one took, whatever the machine). */
  clock?: () => number;
  setTimer?: (run: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clearTimer?: (timer: ReturnType<typeof setTimeout>) => void;
}

export class StatusReads<T> {
  private reading = false;
  /** Read as soon as the read under way ends (the user asked for it). */
  private asked: string | null = null;
  /** Read once the pause after the last read is over (a change asked for it). */
  private changedId: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastMs = 0;
  private lastEnd = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private readonly clock: () => number;
  private readonly setTimer: NonNullable<StatusReadsDeps<T>['setTimer']>;
  private readonly clearTimer: NonNullable<StatusReadsDeps<T>['clearTimer']>;

  constructor(private readonly deps: StatusReadsDeps<T>) {
    this.clock = deps.clock ?? (() => performance.now());
    this.setTimer = deps.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = deps.clearTimer ?? ((timer) => clearTimeout(timer));
  }

  /** The user asked for this campaign: read at once (after the read under way, if one is). */
  async now(id: string): Promise<void> {
    if (this.stopped) return;
    this.cancelPause();
    this.changedId = null;
    if (this.reading) return void (this.asked = id);
    this.reading = true;
    try {
      for (let next: string | null = id; next !== null && !this.stopped; next = this.takeAsked()) {
        const started = this.clock();
        try {
          const status = await this.deps.read(next);
          if (!this.stopped) this.deps.shown(next, status);
        } catch (error) {
          if (!this.stopped) this.deps.failed(error);
        } finally {
          this.lastEnd = this.clock();
          this.lastMs = this.lastEnd - started;
        }
      }
    } finally {
      this.reading = false;
    }
    const changed = this.changedId;
    this.changedId = null;
    if (changed !== null) this.changed(changed);
  }

  /** The campaign changed: read it once the pause after the last read is over, sharing one read with other changes. */
  changed(id: string): void {
    if (this.stopped) return;
    this.changedId = id;
    if (this.reading || this.timer !== null) return;
    const wait = this.lastEnd + pauseAfter(this.lastMs) - this.clock();
    if (wait <= 0) return void this.now(id);
    this.timer = this.setTimer(() => {
      this.timer = null;
      const due = this.changedId;
      if (due !== null) void this.now(due);
    }, wait);
  }

  /** The page is gone: nothing more is read, and an answer under way is dropped. */
  stop(): void {
    this.stopped = true;
    this.cancelPause();
  }

  private takeAsked(): string | null {
    const asked = this.asked;
    this.asked = null;
    return asked;
  }

  private cancelPause(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }
}
