/**
 * One row's next step, as the engine hands it to a queue: which run (of which kind) and which row. The
 * step itself is read from the row's record when it runs, so a task says nothing that can go stale.
 */
export interface RowTask {
  kind: string;
  runId: string;
  row: number;
}

export const rowTaskKey = (task: RowTask): string => `${task.kind}/${task.runId}/${task.row}`;

/**
 * The row engine's queue of row steps, in its own process, between "which row step runs next" (the engine
 * and its pacer decide, then `push`) and "run this step" (the worker given to `start`). Tasks start at
 * once, since the pacer already decided when. It promises three things: a row asked for twice while it
 * waits is one task; one row's steps never run at once (a row asked for while its step runs runs again
 * after it, reading its record afresh); and `drop` forgets what waits of a run. Rows made on other
 * machines go through the queue of takes in Redis instead (queue/row-takes.ts), a whole row at a time.
 */
export class InProcessRowQueue {
  private worker: ((task: RowTask) => Promise<void>) | null = null;
  /** Rows whose step runs now; `true` when asked for again meanwhile. */
  private readonly running = new Map<string, boolean>();
  private readonly waiting = new Map<string, RowTask>();
  private readonly work = new Set<Promise<void>>();
  private stopped = false;

  /** Hands every task to `worker` from now on, those that waited for it first. */
  start(worker: (task: RowTask) => Promise<void>): void {
    this.worker = worker;
    for (const [key, task] of [...this.waiting]) {
      this.waiting.delete(key);
      this.push(task);
    }
  }

  push(task: RowTask): void {
    if (this.stopped) return;
    const key = rowTaskKey(task);
    if (this.running.has(key)) {
      this.running.set(key, true);
      return;
    }
    if (!this.worker) {
      this.waiting.set(key, task);
      return;
    }
    this.running.set(key, false);
    const worker = this.worker;
    const done = (async () => {
      // Again while the row was asked for during its step: the step reads the row afresh each time.
      do {
        this.running.set(key, false);
        await worker(task).catch(() => undefined);
      } while (this.running.get(key) === true && !this.stopped);
      this.running.delete(key);
    })();
    this.work.add(done);
    void done.finally(() => this.work.delete(done));
  }

  /** Tasks of the run not started yet are forgotten (a step running, and what its row's job's end asks, go on). */
  drop(kind: string, runId: string): void {
    for (const [key, task] of [...this.waiting])
      if (task.kind === kind && task.runId === runId) this.waiting.delete(key);
  }

  /** Settles once nothing runs. */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.all([...this.work]);
  }

  /** Starts nothing more. */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
  }
}
