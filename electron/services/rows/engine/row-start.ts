import type { Logger } from '../../host/types';
import type { RowPacer } from '../rate/row-pacer';
import { rowOfRun, type RowBase, type RowKind, type RunBase } from './row-kind';
import type { RowTask } from './row-queue';
import type { RowStarts } from './row-starts';
import type { RowWork } from './row-work';
import type { RunMemory } from './run-memory';

type AnyRun = RunBase<RowBase>;
type AnyKind = RowKind<RowBase, AnyRun>;

/** How long a run waits for a row's hold before it looks at its rows again. */
const ASK_MS = 10_000;

export interface RowStartDeps {
  starts: RowStarts;
  memory: RunMemory;
  work: RowWork;
  log?: Logger;
  pacerOf(kind: string, id: string): RowPacer | null;
  /** Rows started and not yet at their first create (the engine's). */
  starting: Set<string>;
  push(task: RowTask): void;
  stopped(): boolean;
  /** The run looks at its rows again. */
  pump(kind: string, id: string): void;
}

/**
 * Starts a run's next row once the spending gate holds its whole price. The hold may wait on Redis, so a
 * run asks for one row at a time: a row is never asked for, or started, twice; the run looks again once
 * it is answered (held, or asked meanwhile by a row's end or the pacer's room: no such wake is lost).
 * Not held and not asked again, the run waits to be woken (RowStarts says by what): nothing polls.
 */
export class RowStart {
  private readonly asking = new Set<string>();
  private readonly askedAgain = new Set<string>();
  /** Ends each wait for a hold still unanswered: the engine stopping waits for none (a Redis gone never answers). */
  private readonly waits = new Set<() => void>();

  constructor(private readonly deps: RowStartDeps) {}

  /** Whether the run's next row is being asked for (the run's look is then taken again once it is answered). */
  busy(kind: string, id: string): boolean {
    const key = `${kind}/${id}`;
    if (this.asking.has(key)) this.askedAgain.add(key);
    return this.asking.has(key);
  }

  /**
   * Asks for the row's price to be held, then starts it. An answer that has not come within ASK_MS (a
   * queue's Redis away) lets the run look again meanwhile: the row's hold is asked once (RowHolds), and
   * held late, the run looks again and starts it then.
   */
  next(kind: AnyKind, run: AnyRun, row: RowBase, connection: string): void {
    const key = `${kind.name}/${run.id}`;
    this.asking.add(key);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let giveUp = (): void => undefined;
    const late = new Promise<'late'>((resolve) => {
      giveUp = () => resolve('late');
      timer = setTimeout(giveUp, ASK_MS);
    });
    timer?.unref?.();
    this.waits.add(giveUp);
    const answered = this.deps.starts.admit(kind, run, row, connection).catch((error: unknown) => {
      this.deps.log?.warn('a row could not be budgeted', { kind: kind.name, run: run.id, error: String(error) });
      return false;
    });
    const first = Promise.race([answered, late]).then((held) => {
      clearTimeout(timer);
      this.waits.delete(giveUp);
      this.asking.delete(key);
      const again = this.askedAgain.delete(key);
      if (held === true) this.start(kind, run.id, row.row);
      if (held !== false || again) this.deps.pump(kind.name, run.id);
    });
    this.deps.work.track(first);
  }

  /**
   * The engine stops: a hold still unanswered is waited for no longer (its row, if held late, is not
   * started: start() sees the engine stopped and lets the hold go).
   */
  stop(): void {
    for (const giveUp of [...this.waits]) giveUp();
  }

  /** Starts a held row, unless its run or the row moved on meanwhile (its hold then goes back). */
  private start(kind: AnyKind, id: string, rowNumber: number): void {
    const task = { kind: kind.name, runId: id, row: rowNumber };
    const run = this.deps.memory.inMemory(kind.name, id);
    const row = run && rowOfRun(run.rows, rowNumber);
    const pacer = this.deps.pacerOf(kind.name, id);
    if (!run || run.state !== 'running' || this.deps.stopped() || row?.state !== 'pending' || !pacer) {
      this.deps.starts.after(task);
      return;
    }
    this.deps.starting.add(`${kind.name}/${id}/${rowNumber}`);
    pacer.starts();
    // In memory at once, so the next look does not start it again.
    const started = this.deps.memory.setRow(kind.name, id, rowNumber, (r) =>
      r.state === 'pending' ? { ...r, state: kind.firstStep(run, r) } : r,
    );
    this.deps.work.track(started.then(() => this.deps.push(task)));
  }
}
