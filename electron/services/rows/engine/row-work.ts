import type { Logger } from '../../host/types';

/**
 * Work the engine started and nobody awaits (a row starting, a finish, a wait after a refusal), so
 * `idle()` can wait for all of it (tests await it instead of sleeping) and `stop()` can end the waits.
 */
export class RowWork {
  private readonly busy = new Set<Promise<unknown>>();
  private readonly timers = new Map<ReturnType<typeof setTimeout>, () => void>();

  constructor(private readonly log?: Logger) {}

  track(work: Promise<unknown>): void {
    const quiet = work.catch((error: unknown) => this.log?.warn('row engine work failed', { error: String(error) }));
    this.busy.add(quiet);
    void quiet.finally(() => this.busy.delete(quiet));
  }

  /** Runs `then` after `ms`, counted as work meanwhile. */
  later(ms: number, then: () => void): void {
    let resolve!: () => void;
    this.track(new Promise<void>((r) => (resolve = r)));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      then();
      resolve();
    }, ms);
    timer.unref?.();
    this.timers.set(timer, resolve);
  }

  /** Settles once nothing tracked is moving. */
  async idle(): Promise<void> {
    while (this.busy.size > 0) await Promise.all([...this.busy]);
  }

  moving(): boolean {
    return this.busy.size > 0;
  }

  /** Ends every wait without running what it would have run. */
  stop(): void {
    for (const [timer, resolve] of this.timers) {
      clearTimeout(timer);
      resolve();
    }
    this.timers.clear();
  }
}
