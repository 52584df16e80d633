import { rowIndex, sameRowNumbers, type RowBase, type RowKind, type RunBase } from './row-kind';
import { summarise, type RunSummary } from './run-store';
import { keepMarks } from './first-row';

type AnyRun = RunBase<RowBase>;
type AnyKind = RowKind<RowBase, AnyRun>;

/**
 * The runs the engine works on, held in memory over their stored records: a change is seen by every reader
 * at once (before anything awaits) and written after, a row's change as that row alone, and waiters
 * are woken at every change. It keeps what was decided; the engine decides.
 */
export class RunMemory {
  private readonly runs = new Map<string, AnyRun>();
  private readonly waiters = new Set<() => void>();
  private readonly finishing = new Set<string>();
  /** Who hears of each change of a run besides its kind (a worker's one-row run: its take's progress at the queue). */
  private readonly watchers = new Map<string, (run: AnyRun) => void>();
  private stopped = false;

  constructor(private readonly kindOf: (name: string) => AnyKind) {}

  async list(kind: string): Promise<AnyRun[]> {
    for (const run of await this.kindOf(kind).runs.list()) {
      const key = `${kind}/${run.id}`;
      if (!this.runs.has(key)) this.runs.set(key, run);
    }
    return [...this.runs]
      .filter(([key]) => key.startsWith(`${kind}/`))
      .map(([, run]) => run)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  /**
   * Every run of the kind without its rows, newest first: those held here as they are now (changes not
   * yet committed included), the others as the store counts them. No run is read into memory for it.
   */
  async summaries(kind: string): Promise<RunSummary<AnyRun>[]> {
    const stored = await this.kindOf(kind).runs.summaries();
    const held = [...this.runs].filter(([key]) => key.startsWith(`${kind}/`)).map(([, run]) => run);
    const ids = new Set(held.map((run) => run.id));
    return [
      ...held.map((run) => ({ ...summarise(run), held: run })),
      ...stored.filter(({ run }) => !ids.has(run.id)),
    ].sort((a, b) => b.run.createdAt - a.run.createdAt);
  }

  async get(kind: string, id: string): Promise<AnyRun | null> {
    const known = this.runs.get(`${kind}/${id}`);
    if (known) return known;
    const stored = await this.kindOf(kind).runs.get(id);
    // Another read may have put it in memory meanwhile (and changed it since): that one stands.
    const now = this.runs.get(`${kind}/${id}`);
    if (now) return now;
    if (stored) this.runs.set(`${kind}/${id}`, stored);
    return stored;
  }

  async require(kind: string, id: string): Promise<AnyRun> {
    const run = await this.get(kind, id);
    if (!run) throw new Error(`No ${kind} "${id}"`);
    return run;
  }

  inMemory(kind: string, id: string): AnyRun | undefined {
    return this.runs.get(`${kind}/${id}`);
  }

  /** The whole run written (made, replaced, or its own fields changed). */
  save(kind: string, run: AnyRun): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.remember(kind, run);
    return this.kindOf(kind).runs.putRun(run);
  }

  update(kind: string, id: string, change: (run: AnyRun) => AnyRun): Promise<void> {
    const run = this.runs.get(`${kind}/${id}`);
    if (!run) return Promise.reject(new Error(`No ${kind} "${id}"`));
    return this.save(kind, change(run));
  }

  /** One row changed: only that row is written. */
  setRow(kind: string, id: string, row: number, change: (row: RowBase) => RowBase): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const run = this.runs.get(`${kind}/${id}`);
    if (!run) return Promise.reject(new Error(`No ${kind} "${id}"`));
    const at = rowIndex(run.rows, row);
    if (at === -1) return Promise.resolve();
    const changed = change(run.rows[at] as RowBase);
    const rows = [...run.rows];
    rows[at] = changed;
    if (changed.row === row) sameRowNumbers(run.rows, rows);
    keepMarks(run.rows, rows, at, changed);
    const next = { ...run, rows };
    this.remember(kind, next);
    return this.kindOf(kind).runs.putRow(next, changed);
  }

  /** `seen` hears of every change of the run from now on, until it is let go of. */
  watch(kind: string, id: string, seen: (run: AnyRun) => void): void {
    this.watchers.set(`${kind}/${id}`, seen);
  }

  /** The run is let go of, in memory and on disk. */
  forget(kind: string, id: string): Promise<void> {
    this.runs.delete(`${kind}/${id}`);
    this.watchers.delete(`${kind}/${id}`);
    return this.kindOf(kind).runs.remove(id);
  }

  /** One finish at a time per run. */
  claimFinish(kind: string, id: string): boolean {
    const key = `${kind}/${id}`;
    if (this.finishing.has(key)) return false;
    this.finishing.add(key);
    return true;
  }

  releaseFinish(kind: string, id: string): void {
    this.finishing.delete(`${kind}/${id}`);
  }

  async flush(): Promise<void> {
    const kinds = new Set([...this.runs.keys()].map((key) => key.slice(0, key.indexOf('/'))));
    await Promise.all([...kinds].map((kind) => this.kindOf(kind).runs.flush()));
  }

  /** Writes nothing more (a stopped engine is a process that has gone), and wakes every waiter. */
  stop(): void {
    this.stopped = true;
    this.wake();
  }

  /** Resolves once `done` holds for the run, checked again at every change. */
  until(kind: string, id: string, done: (run: AnyRun) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        const run = this.runs.get(`${kind}/${id}`);
        if (!run || done(run)) {
          this.waiters.delete(check);
          resolve();
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  private remember(kind: string, run: AnyRun): void {
    this.runs.set(`${kind}/${run.id}`, run);
    this.kindOf(kind).onChange?.(run);
    this.watchers.get(`${kind}/${run.id}`)?.(run);
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
