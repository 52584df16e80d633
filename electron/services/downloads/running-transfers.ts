/** The reason given to an aborted fetch when the user paused or cancelled (not an error to report). */
class PausedSignal extends Error {
  constructor() {
    super('paused');
  }
}

interface Transfer {
  controller: AbortController;
  ended: Promise<void>;
}

/** The transfers under way, by download id: how to stop each, and when each has let go of its `.part`. */
export class RunningTransfers {
  private readonly transfers = new Map<string, Transfer>();

  has(id: string): boolean {
    return this.transfers.has(id);
  }

  /** Marks a transfer as running; its signal aborts on stop(), its end() releases whoever waits on it. */
  start(id: string): { signal: AbortSignal; end(): void } {
    const controller = new AbortController();
    let letGo = (): void => undefined;
    const ended = new Promise<void>((resolve) => (letGo = resolve));
    this.transfers.set(id, { controller, ended });
    return {
      signal: controller.signal,
      end: () => {
        this.transfers.delete(id);
        letGo();
      },
    };
  }

  /** Stops a transfer as paused, cancelled or quitting; the entry's state says which. */
  stop(id: string): void {
    this.transfers.get(id)?.controller.abort(new PausedSignal());
  }

  /** Settles once the transfer (if any) has ended. */
  async endOf(id: string): Promise<void> {
    await this.transfers.get(id)?.ended;
  }

  async stopAll(): Promise<void> {
    const all = [...this.transfers.values()];
    for (const { controller } of all) controller.abort(new PausedSignal());
    await Promise.all(all.map(({ ended }) => ended));
  }
}
