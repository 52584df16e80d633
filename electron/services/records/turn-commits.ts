interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The changes a store is asked for within one event-loop turn, committed together at the turn's end
 * (setImmediate): a burst of submits, a poll round or a window of downloads costs one transaction and
 * one fsync rather than one each, and SQLite's statements are synchronous, so a transaction per change
 * would also hold the main thread that much longer.
 *
 * Each change is folded into the turn's batch (the store decides what a batch is: the last change of a
 * record winning, whether it must be flushed); its promise settles once that batch is committed, or is
 * rejected with the commit's error. Only the callers of that batch hear of a failure: the next batch
 * starts empty. `now` commits at once, for a caller that must know its change is on disk before it goes
 * on, and for a store about to close its connection.
 */
export class TurnCommits<Batch> {
  private batch: Batch;
  private waiters: Waiter[] = [];
  private turn: Promise<void> | null = null;

  constructor(
    private readonly empty: () => Batch,
    /** Writes one batch in one transaction; throws (every caller of the batch hears why) or returns. */
    private readonly commit: (batch: Batch) => void,
  ) {
    this.batch = empty();
  }

  /** Folds a change into this turn's batch; settles once the batch is committed. */
  add(fold: (batch: Batch) => void): Promise<void> {
    fold(this.batch);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.turn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turn = null;
        this.now();
        resolve();
      }),
    );
    return done;
  }

  /** Commits what this turn gathered so far, before returning; its callers' promises settle with it. */
  now(): void {
    if (this.waiters.length === 0) return;
    const { batch, waiters } = this;
    this.batch = this.empty();
    this.waiters = [];
    try {
      this.commit(batch);
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }

  /** Settles once every change asked for so far is committed (or has failed). */
  async flush(): Promise<void> {
    while (this.turn) await this.turn;
  }
}
