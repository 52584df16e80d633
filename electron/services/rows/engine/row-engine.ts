import type { JobRecord, JobView } from '../../../common/bridge/jobs';
import type { RunBalance } from '../../../common/jobs/run-balance';
import { RunBalanceWatch } from '../../jobs/run-balance';
import { RowPacers, type RowPacer } from '../rate/row-pacer';
import { InProcessRowQueue, type RowTask } from './row-queue';
import { intentKey, NOT_SENT, sendOnce } from '../queue/create-intents';
import {
  jobOfRow,
  rowScope,
  madeNothing,
  JOB_ENDED,
  ROW_ENDED,
  refusedForBalance,
  ROW_HELD,
  refusedTooFrequent,
  rowUnderWay,
  rowOfRun,
} from './row-kind';
import { firstRow, rowGoesOn, rowOpen, rowPending } from './first-row';
import type { RowBase, RowKind, RowStepContext, RunBase, RunState } from './row-kind';
import { RunMemory } from './run-memory';
import { RowWork } from './row-work';
import { RowStarts } from './row-starts';
import { RowStart } from './row-start';
import { RunStops } from './run-stops';
import { finishRun, readOnce, releaseIfStopped } from './run-finish';
import { rowLabel } from '../../../common/text/row-label';
import type { RowEngineDeps } from './row-engine-deps';
export type { RowEngineDeps };

type AnyRow = RowBase;
type AnyRun = RunBase<AnyRow>;
type AnyKind = RowKind<AnyRow, AnyRun>;
type EndedJob = Pick<JobRecord, 'purpose'>;
/** A step whose create the service still refused as too frequent goes again after the service's window. */
const REFUSED_AGAIN_MS = 1_000;

/**
 * The one row engine of batches and campaigns. A run is rows, each a durable record with its own state
 * machine (row-kind.ts); the engine decides which row step runs next and hands it to its queue of
 * row steps (row-queue.ts), driven by the reactor (`jobEnded`) and by `run`. The kind asks the ledger whether a
 * step of a take has a job before any create, so nothing is created twice. A row starts when its whole
 * price is reserved, the rows under way are within their bound (row-starts.ts) and its connection's pacer
 * has room (rate/row-pacer.ts); a paused run sends nothing more. Queued runs: queue/queued-runs.ts.
 */
export class RowEngine {
  private readonly kinds = new Map<string, AnyKind>();
  private readonly memory: RunMemory;
  private readonly queue = new InProcessRowQueue();
  private readonly pacers: RowPacers;
  private readonly balances = new Map<string, RunBalanceWatch>();
  /** The connection each running run sends to, read when it starts. */
  private readonly connections = new Map<string, string>();
  private readonly roomListening = new Set<string>();
  /** Rows started and not yet at their first create (it goes after the creates of rows under way). */
  private readonly starting = new Set<string>();
  private readonly work: RowWork;
  private readonly stops: RunStops;
  private readonly starts: RowStarts;
  private readonly rowStart: RowStart;
  private stopped = false;

  constructor(private readonly deps: RowEngineDeps) {
    this.work = new RowWork(deps.log);
    this.memory = new RunMemory((kind) => this.kindOf(kind));
    this.stops = new RunStops({
      jobs: deps.jobs,
      memory: this.memory,
      kindOf: (kind) => this.kindOf(kind),
      connections: this.connections,
      log: deps.log,
      stopped: () => this.stopped,
    });
    const [again, kindOf] = [(kind: string, id: string) => this.pump(kind, id), (kind: string) => this.kindOf(kind)];
    const { memory, stops, connections } = this;
    const track = (work: Promise<unknown>) => this.work.track(work);
    const later = (ms: number, then: () => void) => this.work.later(ms, then);
    this.starts = new RowStarts({ ...deps, again, kindOf, memory, stops, connections, track, later });
    this.pacers = deps.pacers ?? new RowPacers();
    this.rowStart = new RowStart({
      ...{ starts: this.starts, memory, work: this.work, log: deps.log, starting: this.starting },
      pacerOf: (kind, id) => this.pacerOf(kind, id),
      push: (task) => this.queue.push(task),
      stopped: () => this.stopped,
      pump: again,
    });
    this.queue.start((task) => this.runStep(task));
    deps.remote?.attach(deps.jobs, this.queue, this.stops, () => !this.stopped);
  }

  register<Row extends RowBase, Run extends RunBase<Row>>(kind: RowKind<Row, Run>): void {
    const any = (this.deps.remote?.wrap(kind) ?? kind) as unknown as AnyKind;
    this.kinds.set(kind.name, any);
    const read = this.deps.jobs.balanceNow?.bind(this.deps.jobs);
    const save = (id: string, balance: RunBalance) => this.memory.update(kind.name, id, (r) => ({ ...r, balance }));
    if (read) this.balances.set(kind.name, new RunBalanceWatch({ ...this.deps.balanceReadings, read, save }));
  }

  async create(kind: string, run: AnyRun): Promise<void> {
    if (await this.memory.get(kind, run.id)) throw new Error(`A ${kind} "${run.id}" exists already`);
    await this.memory.save(kind, run);
  }

  /** The run as edited (its spreadsheet revised): it goes on from there, any account pause over. */
  async replace(kind: string, run: AnyRun): Promise<void> {
    await this.memory.require(kind, run.id);
    await this.memory.save(kind, run.state === 'running' ? { ...run, pause: null } : run);
  }

  /** A run's jobs, as the engine sees them (views, manifests), held only while it runs. */
  readonly jobs = (id: string): JobView[] => readOnce(this.memory, this.deps.jobs, [...this.kinds.keys()], id);
  readonly get = (kind: string, id: string): Promise<AnyRun | null> => this.memory.get(kind, id);
  readonly require = (kind: string, id: string): Promise<AnyRun> => this.memory.require(kind, id);
  readonly list = (kind: string): Promise<AnyRun[]> => this.memory.list(kind);
  readonly summaries = (kind: string) => this.memory.summaries(kind);

  /** Changes a run's own fields (rows included) and writes the whole run. */
  async update(kind: string, id: string, change: (run: AnyRun) => AnyRun): Promise<AnyRun> {
    await this.memory.require(kind, id);
    await this.memory.update(kind, id, change);
    return this.memory.require(kind, id);
  }

  /** Goes on with every run of the kind that was running when the host stopped; only those are opened. */
  async resumeAll(kind: string): Promise<void> {
    for (const { run } of await this.summaries(kind)) if (run.state === 'running') void this.run(kind, run.id);
  }

  /**
   * Goes on with the run: rows under way run their step again, new rows start as the pacer lets them.
   * Resolves once it finished or is paused, or cancelled with nothing under way (at once, `untilRowsEnd` false).
   */
  async run(kind: string, id: string, { untilRowsEnd = true } = {}): Promise<AnyRun> {
    const going = (async () => {
      const run = await this.memory.require(kind, id);
      if (run.state === 'running' && !this.stopped) {
        // A worker's one-row run reads no balance: the queued run's studio reads the account's.
        if (!run.partOf) await this.balances.get(kind)?.started(id, run.balance);
        await this.connect(kind, id);
      }
      for (const row of run.rows.filter(rowUnderWay)) {
        this.starts.keep(this.kindOf(kind), run, row);
        this.queue.push({ kind, runId: id, row: row.row });
      }
      this.pump(kind, id);
    })();
    this.work.track(going);
    await going;
    await this.memory.until(
      kind,
      id,
      (now) =>
        this.stopped ||
        now.state === 'finished' ||
        // Paused (by its user or the account), its rows under way are held: nothing is sent until it is resumed.
        now.state === 'paused' ||
        (now.state !== 'running' && (!untilRowsEnd || !now.rows.some((r) => rowUnderWay(r)))),
    );
    // Each create on its way has left or been held back (its row put back) before the run is answered.
    await this.stops.decided(kind, id);
    const ended = await this.memory.require(kind, id);
    if (!this.stopped) await this.balances.get(kind)?.stopped(id, ended.state === 'finished');
    releaseIfStopped(this.memory, this.deps.jobs, kind, id);
    return this.memory.require(kind, id);
  }

  /** The reactor's handler for a row's job that ended (any kind): the row goes on. */
  jobEnded(job: EndedJob): Promise<void> {
    for (const kind of this.kinds.values()) {
      const at = kind.rowOf(job);
      if (!at) continue;
      const task = { kind: kind.name, runId: at.runId, row: at.row };
      const moving = this.memory.get(kind.name, at.runId).then((run) => void (run && this.queue.push(task)));
      this.work.track(moving);
      return moving;
    }
    return Promise.resolve();
  }

  /** No paid request leaves after it: rows under way keep their step (what is at the service finishes) until resumed. */
  pause(kind: string, id: string): Promise<AnyRun> {
    return this.setState(kind, id, 'paused');
  }

  async resume(kind: string, id: string): Promise<AnyRun> {
    const run = await this.setState(kind, id, 'running');
    void this.run(kind, id);
    return run;
  }

  /** Rows not started never are; a row under way stops before its next paid step. */
  async cancel(kind: string, id: string): Promise<AnyRun> {
    await this.setState(kind, id, 'cancelled');
    const k = this.kindOf(kind);
    await this.memory.update(kind, id, (r) => ({
      ...r,
      rows: r.rows.map((row) => (row.state === 'pending' || row.state === ROW_HELD ? k.cancelled(row) : row)),
    }));
    this.queue.drop(kind, id);
    return this.memory.require(kind, id);
  }

  /** Makes an ended row again (a new take, paid like the first); the earlier take's jobs stay in the ledger. */
  async redo(kind: string, id: string, rowNumber: number, allowed: (row: AnyRow) => void): Promise<AnyRun> {
    const run = await this.memory.require(kind, id);
    const row = rowOfRun(run.rows, rowNumber);
    if (!row) throw new Error(`The ${kind} has no ${rowLabel({ row: rowNumber })}.`);
    return (allowed(row), this.redoRows(kind, id, [rowNumber]));
  }

  /** Makes several ended rows again at once (retry all failed; the caller picks them): each its next take. */
  async redoRows(kind: string, id: string, rowNumbers: readonly number[]): Promise<AnyRun> {
    const k = this.kindOf(kind);
    const redone = new Set(rowNumbers);
    const jobs = this.deps.jobs.list(undefined, { runId: id });
    await this.memory.update(kind, id, (r) => ({
      ...r,
      ...(r.state === 'cancelled' ? {} : { state: 'running' as const, pause: null }),
      rows: r.rows.map((x) => (redone.has(x.row) && ROW_ENDED.has(x.state) ? k.redo(x, jobs) : x)),
    }));
    this.pump(kind, id);
    return this.memory.require(kind, id);
  }

  /** Settles once nothing of the engine is moving (a run may still wait for jobs at the service). */
  async idle(): Promise<void> {
    for (;;) {
      await this.queue.idle();
      if (!this.work.moving()) return;
      await this.work.idle();
    }
  }

  readonly flush = (): Promise<void> => this.memory.flush();
  /** Lets go of an ended run (a worker's one-row run, reported): in memory and on disk, and its ended jobs in memory. */
  forget(kind: string, id: string): Promise<void> {
    for (const held of [this.stops.guards, this.stops.undecided, this.connections]) held.delete(`${kind}/${id}`);
    this.deps.jobs.forgotten?.forgetWhere((job) => this.kindOf(kind).rowOf(job)?.runId === id);
    return this.memory.forget(kind, id);
  }

  /** A paid request only while `running` says yes too (asked before each), else it pauses; `progress` hears of each change. */
  readonly guard = (kind: string, id: string, running: () => Promise<boolean>, progress?: (rows: AnyRow[]) => void) => {
    this.stops.guards.set(`${kind}/${id}`, running);
    if (progress) this.memory.watch(kind, id, (run) => progress(run.rows));
  };

  /** Sends nothing more (quitting); what is at the service goes on and is picked up at the next start. */
  stop(): void {
    this.stopped = true;
    for (const watch of this.balances.values()) watch.stop();
    this.rowStart.stop();
    this.work.stop();
    this.pacers.stop();
    this.queue.stop();
    this.memory.stop();
  }

  private kindOf(name: string): AnyKind {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`No row kind "${name}"`);
    return kind;
  }

  private async connect(kind: string, id: string): Promise<void> {
    const connection = (await this.deps.connection?.()) ?? 'default';
    this.connections.set(`${kind}/${id}`, connection);
    if (this.roomListening.has(connection)) return;
    this.roomListening.add(connection);
    // No create on its way on the connection: every run sending on it may start a row, the first ask going
    // round the runs in turn, so a long batch cannot keep a campaign beside it from ever starting one.
    let round = 0;
    this.pacers.of(connection).onRoom(() => {
      const keys = [...this.connections].filter(([, c]) => c === connection).map(([key]) => key);
      const from = round++ % keys.length;
      for (const key of [...keys.slice(from), ...keys.slice(0, from)])
        this.pump(key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1));
    });
  }

  private pacerOf(kind: string, id: string): RowPacer | null {
    const connection = this.connections.get(`${kind}/${id}`);
    return connection === undefined ? null : this.pacers.of(connection);
  }

  /** Starts the next pending row, in order, while the pacer is free, once held (row-start.ts); finishes an ended run. */
  private pump(kind: string, id: string): void {
    const run = this.memory.inMemory(kind, id);
    if (!run || run.state !== 'running' || this.stopped || this.rowStart.busy(kind, id)) return;
    const pacer = this.pacerOf(kind, id);
    const connection = this.connections.get(`${kind}/${id}`);
    if (!pacer || connection === undefined) return;
    const next = pacer.free() ? firstRow(run.rows, rowPending) : undefined;
    if (next) this.rowStart.next(this.kindOf(kind), run, next, connection);
    if (!firstRow(run.rows, rowOpen))
      this.work.track(finishRun(this.memory, this.kindOf(kind), this.deps.jobs, id, this.deps.log));
    // Only held rows are left: the run waits for its user (paused, not finished) with them listed.
    else if (!firstRow(run.rows, rowGoesOn)) this.work.track(this.setState(kind, id, 'paused'));
  }

  /** The queue's worker: runs a row's step, again while its state moves on, then lets the run go on. */
  private async runStep(task: RowTask): Promise<void> {
    const key = `${task.kind}/${task.runId}/${task.row}`;
    try {
      for (;;) {
        if (this.stopped) return;
        const run = await this.memory.require(task.kind, task.runId);
        const row = rowOfRun(run.rows, task.row);
        if (!row || !rowUnderWay(row)) return;
        await this.kindOf(task.kind).step(this.context(task, run, row));
        const rows = this.memory.inMemory(task.kind, task.runId)?.rows;
        const after = rows && rowOfRun(rows, task.row);
        if (!after || after.state === row.state || after.take !== row.take || !rowUnderWay(after)) return;
      }
    } catch (error) {
      this.deps.log?.warn('a row could not go on', {
        kind: task.kind,
        run: task.runId,
        row: task.row,
        error: String(error),
      });
      const reason = `the studio could not go on with it: ${error instanceof Error ? error.message : String(error)}`;
      await this.memory.setRow(task.kind, task.runId, task.row, (r) => ({ ...r, state: 'failed', problems: [reason] }));
    } finally {
      if (this.starting.delete(key)) this.pacerOf(task.kind, task.runId)?.started();
      this.starts.after(task);
      this.pump(task.kind, task.runId);
      releaseIfStopped(this.memory, this.deps.jobs, task.kind, task.runId);
    }
  }

  private context(task: RowTask, run: AnyRun, row: AnyRow): RowStepContext<AnyRow, AnyRun> {
    const key = `${task.kind}/${task.runId}/${task.row}`;
    const set = (change: (row: AnyRow) => AnyRow) => this.memory.setRow(task.kind, task.runId, task.row, change);
    const rowJobs = () => this.deps.jobs.list(jobOfRow(this.kindOf(task.kind), task), rowScope(task));
    return {
      run,
      row,
      jobs: rowJobs,
      set,
      fail: (reason) => set((r) => ({ ...r, state: 'failed', problems: [reason] })),
      paid: async (known, make) => {
        // A create the service refused before making anything (too frequent, out of credits) is sent again.
        if (known && !refusedTooFrequent(known) && !refusedForBalance(known))
          return JOB_ENDED.has(known.phase) ? known : 'waiting';
        if (!this.pacerOf(task.kind, task.runId)) await this.connect(task.kind, task.runId);
        const pacer = this.pacerOf(task.kind, task.runId);
        // A new row holds its pacer until its first create joins the line (`turn`), or its step ends (`started`).
        const first = this.starting.has(key);
        // A row that has made nothing of this take yet goes back to waiting when held (it is not under way).
        const at = { first, untouched: () => madeNothing(rowJobs(), row) };
        if (!(await this.stops.mayCreate(task, at, set))) return 'waiting';
        const submission = await make();
        // Stopped while the body was made (pictures drawn, files uploaded): nothing is sent.
        if (this.stopped) return 'waiting';
        // A new row's first create waits here for the creates of rows under way to leave.
        const left = (await pacer?.turn(this.starting.delete(key))) ?? (() => undefined);
        // Within the run's cap and credits, sent once; held back as it leaves (a pause), put back as mayGo does.
        const mayGo = async () => !this.stopped && this.stops.mayCreate(task, at, set);
        const result = await this.stops
          .send(task, submission, (s, options) => {
            // Let go by the transport at its limiter's turn: the create has left the pacer's line.
            const stillGoes = () => (left(), options.stillGoes?.() ?? true);
            return sendOnce(this.deps, intentKey(task, row, s), s, set, {
              ...options,
              mayGo,
              heldBack: mayGo,
              stillGoes,
            });
          })
          .catch((error: unknown) => (error === NOT_SENT ? null : Promise.reject(error)))
          .finally(left);
        if (result === null) return 'waiting';
        // Refused as too frequent after the transport's tries: the limiter holds the pace, the step goes again later.
        if (refusedTooFrequent(result))
          return (this.work.later(REFUSED_AGAIN_MS, () => this.queue.push(task)), 'waiting');
        return JOB_ENDED.has(result.phase) ? result : 'waiting';
      },
    };
  }

  private async setState(kind: string, id: string, state: RunState): Promise<AnyRun> {
    const run = await this.memory.require(kind, id);
    if (run.state === state || (run.state === 'finished' && state !== 'running')) return run;
    // Paused or resumed by the user: the account's reason, if any, is over.
    await this.memory.update(kind, id, (r) => ({ ...r, state, pause: null }));
    // Stopped: answered once each create on its way has left or been held back (what is sent is final).
    if (state !== 'running') await this.stops.decided(kind, id);
    else {
      this.starts.resumed(kind, id);
      this.pump(kind, id);
    }
    return this.memory.require(kind, id);
  }
}
