import type { RecordsStage, StartupState } from '../../common/bridge/system';

/**
 * How far a host's start is, as the page asks for it (system.startup) while the host takes its records
 * in: what it is doing, how far that is, how long it has been going. One instance per host start.
 */
export class StartupProgress {
  readonly #now: () => number;
  readonly #startedAt: number;
  #records: RecordsStage | null = null;
  #endedAt: number | null = null;
  #failure: string | null = null;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#startedAt = now();
  }

  /** The step now under way (called before it runs). */
  report(stage: RecordsStage): void {
    if (this.#endedAt === null) this.#records = stage;
  }

  /** The records are open: the studio can be served. */
  finish(): void {
    this.#end(null);
  }

  /** The records could not be opened; the reason is shown instead of the studio. */
  fail(reason: string): void {
    this.#end(reason);
  }

  get ended(): boolean {
    return this.#endedAt !== null;
  }

  state(): StartupState {
    return {
      ready: this.#endedAt !== null && this.#failure === null,
      records: this.#endedAt === null ? this.#records : null,
      elapsedMs: Math.max(0, (this.#endedAt ?? this.#now()) - this.#startedAt),
      failure: this.#failure,
    };
  }

  #end(failure: string | null): void {
    if (this.#endedAt !== null) return;
    this.#endedAt = this.#now();
    this.#failure = failure;
    this.#records = null;
  }
}
