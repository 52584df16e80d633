import { creditsText } from '../../../common/jobs/cost-model';
import type { RowTask } from './row-queue';
import type { RunMemory } from './run-memory';
import type { RunStops } from './run-stops';
import { RowBudget } from '../money/row-budget';
import { RowHolds, rowName, runName, type RowPlace, type RowRefusal } from '../../jobs/row-holds';
import { RowFlight } from './row-flight';
import {
  ROW_ENDED,
  rowUnderWay,
  rowOfRun,
  type RowBase,
  type RowJobs,
  type RowKind,
  type RowStepPrice,
  type RunBase,
} from './row-kind';

type AnyRun = RunBase<RowBase>;
type AnyKind = RowKind<RowBase, AnyRun>;

export interface RowStartsDeps {
  jobs: RowJobs;
  memory: RunMemory;
  kindOf(kind: string): AnyKind;
  /** The connection each running run sends to (`kind/id` → connection), as the engine keeps it. */
  connections: ReadonlyMap<string, string>;
  /** What the runs' jobs have cost (their caps), and where a run that cannot go on stops. */
  stops: RunStops;
  /** Default: one over the job engine's balance reading. */
  budget?: RowBudget;
  flight?: RowFlight;
  /** Something the starts waited for came (a price, a balance reading): the run looks at its rows again. */
  again(kind: string, runId: string): void;
  /** Work of the starts' own (a reading, a price looked up) that the engine waits for when asked to settle. */
  track(work: Promise<unknown>): void;
  /** Calls `then` after `ms` (the engine's timer, which it waits for when asked to settle). */
  later(ms: number, then: () => void): void;
}

/** How long a price looked up for the budget stands (an unknown one is asked again sooner: a charge may have come). */
const PRICE_MS = 30_000;
const UNKNOWN_PRICE_MS = 1_000;
/** How soon a run refused beside rows another studio holds looks again: their ends are not heard here. */
const OTHERS_ROWS_MS = 2_000;

const REFUSED: Record<RowRefusal, string> = {
  balance: 'The balance does not cover another whole row',
  'daily-limit': "Today's spending limit has no room for another whole row",
  cap: "The run's cap has no room for another whole row",
};

/**
 * Which pending row may start: the money side of the row engine's starts. A row starts only when the
 * budget reserved its whole expected price and the rows under way on its connection are fewer than the
 * service has been finishing in a few minutes. A row's price is the sum of its paid steps' prices as the
 * job engine says them (published, else this connection's recent charges); a worker's one-row run is
 * budgeted by the studio that queued it.
 */
export class RowStarts {
  readonly budget: RowBudget;
  readonly flight: RowFlight;
  /** The rows held (the spending gate's): this process's rows under way, by connection and run. */
  private readonly holds: RowHolds;
  private readonly prices = new Map<string, { credits: number | null; at: number }>();
  /** Prices being looked up, each with the runs that look again once it is known. */
  private readonly asking = new Map<string, Set<() => void>>();
  /** When a row last ended on each connection (a refusal is final only on a reading taken after it). */
  private readonly lastEnd = new Map<string, number>();
  /** Runs that wait for a row under way on the connection to end (`kind/id` by connection): woken by its end. */
  private readonly waiting = new Map<string, Set<string>>();

  constructor(private readonly deps: RowStartsDeps) {
    this.budget =
      deps.budget ??
      new RowBudget(
        async (id) => (await deps.jobs.balanceNow?.(id).catch(() => null))?.credits ?? null,
        deps.jobs.spending?.rows ?? new RowHolds(),
      );
    this.holds = this.budget.holds;
    this.flight = deps.flight ?? new RowFlight();
  }

  /**
   * Whether the pending row may start now (its price then held); false: not now, the run is asked again
   * later. The engine asks for one row of a run at a time, and starts it only once this answered.
   */
  async admit(kind: AnyKind, run: AnyRun, row: RowBase, connection: string): Promise<boolean> {
    if (run.partOf) return true;
    const again = () => this.deps.again(kind.name, run.id);
    if (this.holds.underWay({ connection }) >= this.flight.bound(connection)) return this.wait(connection, kind, run);
    if (this.budget.stale(connection)) {
      const never = !this.budget.readSince(connection, 0);
      this.deps.track(this.budget.refresh(connection).then(again));
      if (never) return false;
    }
    const price = this.price(kind, run, row, connection, again);
    if (price === undefined) return false;
    const place: RowPlace = {
      row: rowKey(kind, run, row),
      run: runKey(kind, run),
      connection,
      queue: run.queue ?? null,
    };
    const reserve = () =>
      this.budget.reserve(place, price, {
        dayRoom: () => this.deps.jobs.spending?.dayRoom(connection) ?? null,
        capRoom: () =>
          typeof run.maxCredits === 'number' ? run.maxCredits - this.deps.stops.spent(kind.name, run.id) : null,
      });
    let answer = await reserve();
    if (answer.ok) return true;
    const waitFor = answer.reason === 'cap' ? { run: runKey(kind, run) } : { connection };
    // Rows under way end first: what they leave is looked at then.
    if (this.holds.underWay(waitFor) > 0) return this.wait(connection, kind, run);
    // Rows another studio holds on the account (or the run) end first too, heard of only by looking again.
    if (answer.beside > 0) return (this.deps.later(OTHERS_ROWS_MS, again), false);
    // Nothing under way: the ledger is looked at anew (a look taken while rows were under way counted their
    // charges beside their reservations), and only then may the run stop.
    if (answer.reason !== 'balance') {
      this.budget.relook(connection, runKey(kind, run));
      answer = await reserve();
      if (answer.ok) return true;
    }
    if (answer.reason === 'balance' && !this.budget.readSince(connection, this.lastEnd.get(connection) ?? 0)) {
      this.deps.track(this.budget.refresh(connection).then(again));
      return false;
    }
    const each = price === null ? '' : ` (about ${creditsText(price)} each)`;
    const free = answer.reason === 'balance' ? answer.free : null;
    const left = free === null ? '' : `: ${creditsText(Math.max(0, Math.floor(free)))} left`;
    const message = `${REFUSED[answer.reason]}${each}${left}. No row was left half paid.`;
    void this.deps.stops.pause({ kind: kind.name, runId: run.id }, answer.reason, message);
    return false;
  }

  /** The run goes on (resumed, or started again): the balance, the day's room and its cap are looked at anew. */
  resumed(kind: string, runId: string): void {
    const connection = this.deps.connections.get(`${kind}/${runId}`);
    if (connection !== undefined) this.budget.forget(connection, `${kind}/${runId}`);
  }

  /** A row under way when its run (re)starts goes on: its remaining price is held whatever the room. */
  keep(kind: AnyKind, run: AnyRun, row: RowBase): void {
    const connection = this.deps.connections.get(runKey(kind, run));
    if (run.partOf || !rowUnderWay(row) || connection === undefined) return;
    const price = this.price(kind, run, row, connection, () => undefined) ?? null;
    const place = { row: rowKey(kind, run, row), run: runKey(kind, run), connection, queue: run.queue ?? null };
    this.holds.keep(place, price);
  }

  /** A row's step ended: a row no longer under way lets its reservation go (counted as spent unless it went back to waiting). */
  after(task: RowTask): void {
    const key = rowName(task.kind, task.runId, task.row);
    if (!this.holds.holds(key)) return;
    const rows = this.deps.memory.inMemory(task.kind, task.runId)?.rows;
    const row = rows && rowOfRun(rows, task.row);
    const connection = this.deps.connections.get(`${task.kind}/${task.runId}`);
    if (row && rowUnderWay(row)) return;
    this.budget.release(key, row?.state !== 'pending');
    if (connection !== undefined) this.wake(connection, `${task.kind}/${task.runId}`);
    if (connection === undefined || !row || !ROW_ENDED.has(row.state)) return;
    this.flight.rowEnded(connection);
    this.lastEnd.set(connection, Date.now());
    // A price nobody could say may be known from this row's charges: asked again at the next start.
    for (const [key, price] of this.prices) if (price.credits === null) this.prices.delete(key);
  }

  /** Not now: the run looks again when a row under way on the connection ends (its own run's end pumps it anyway). */
  private wait(connection: string, kind: AnyKind, run: AnyRun): false {
    let runs = this.waiting.get(connection);
    if (!runs) this.waiting.set(connection, (runs = new Set()));
    runs.add(runKey(kind, run));
    return false;
  }

  /**
   * A reservation on the connection went: each run that waited for one looks again, once. Only those: a
   * run that stopped for the pacer's turns is woken by the pacer, and waking every run would start rows
   * outside the pacer's round.
   */
  private wake(connection: string, ended: string): void {
    const runs = this.waiting.get(connection);
    if (!runs) return;
    this.waiting.delete(connection);
    for (const key of runs)
      if (key !== ended) this.deps.again(key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1));
  }

  /** The row's remaining paid steps at their prices; null: some price nobody can say yet; undefined: being looked up. */
  private price(
    kind: AnyKind,
    run: AnyRun,
    row: RowBase,
    connection: string,
    again: () => void,
  ): number | null | undefined {
    const steps = kind.steps?.(run, row);
    if (!steps || !this.deps.jobs.expectedCredits) return 0;
    let sum: number | null | undefined = 0;
    for (const step of steps) {
      const unit = this.unit(connection, step, again);
      if (unit === undefined) sum = undefined;
      else if (sum !== undefined) sum = unit === null || sum === null ? null : sum + unit;
    }
    return sum;
  }

  private unit(connection: string, step: RowStepPrice, again: () => void): number | null | undefined {
    const key = `${connection}/${step.kind}`;
    const known = this.prices.get(key);
    const age = known ? Date.now() - known.at : Infinity;
    // Every run that found no price waits for the answer, not only the one that asked: a run told "not
    // now" while another run's question was out would otherwise never look again (a campaign resumed
    // beside a batch sat with every row pending after the batch ended).
    const waiting = this.asking.get(key);
    if (waiting && !known) waiting.add(again);
    if (!waiting && age > (known?.credits === null ? UNKNOWN_PRICE_MS : PRICE_MS)) {
      const callers = new Set<() => void>(known ? [] : [again]);
      this.asking.set(key, callers);
      const asking = (this.deps.jobs.expectedCredits?.(step) ?? Promise.resolve(null))
        .catch(() => null)
        .then((credits) => {
          this.prices.set(key, { credits, at: Date.now() });
          this.asking.delete(key);
          for (const wake of callers) wake();
        });
      this.deps.track(asking);
    }
    return known?.credits;
  }
}

const runKey = (kind: AnyKind, run: Pick<AnyRun, 'id'>) => runName(kind.name, run.id);
const rowKey = (kind: AnyKind, run: Pick<AnyRun, 'id'>, row: Pick<RowBase, 'row'>) =>
  rowName(kind.name, run.id, row.row);
