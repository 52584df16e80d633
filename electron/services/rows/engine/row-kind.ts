import { Code } from '../../../common/api/error-codes';
import type { JobScope } from '../../jobs/job-scope';
import type { JobRecord, JobSubmission, JobView, SubmitResult } from '../../../common/bridge/jobs';
import type { RunBalance } from '../../../common/jobs/run-balance';
import type { RunPause } from '../../../common/jobs/run-pause';
import type { BalanceReader } from '../../jobs/run-balance';
import type { RowHolds } from '../../jobs/row-holds';
import type { SentCharge, SubmitOptions } from '../../jobs/engine-types';
import type { RowTask } from './row-queue';
import type { RunStore } from './run-store';
import type { RunAccount, RunStorage } from '../../client/account-proof';

export type { RunAccount, RunStorage };

/**
 * A row's own state machine: `pending`, then one state per step of the kind (a campaign's `voiceover`,
 * `video`, `download`; a batch's `speech`, …), then one of the ended states. A step is a paid create
 * and its wait, or host-side work (a music mix, the save); which steps a row has is its kind's.
 */
export const ROW_ENDED: ReadonlySet<string> = new Set(['done', 'failed', 'invalid', 'cancelled']);

export interface RowBase {
  row: number;
  state: string;
  /** 0 for the first try; a row made again sends new jobs under the next take. */
  take: number;
  problems: string[];
}

export type RunState = 'running' | 'paused' | 'cancelled' | 'finished';

export interface RunBase<Row extends RowBase> {
  id: string;
  createdAt: number;
  state: RunState;
  rows: Row[];
  balance?: RunBalance;
  /** Why the run stopped creating on its own (the balance, the day's limit, its cap); null once resumed. */
  pause?: RunPause | null;
  /** "Stop after N credits": the most the run's jobs may cost (null or absent: no cap). */
  maxCredits?: number | null;
  /** The queue its rows are made on (a Redis address, shown without its password); absent: this computer. */
  queue?: string | null;
  /** On a worker: the queued run this one-row run is a row of. */
  partOf?: string;
  /** A queued run's service and account (no secret): a worker makes its rows only when it serves the same. */
  account?: RunAccount | null;
}

export const JOB_ENDED: ReadonlySet<JobView['phase']> = new Set(['completed', 'failed', 'outcome-unknown']);

/** Refused as too frequent before the service made anything: sending the step again creates it once. */
export const refusedTooFrequent = (job: Pick<JobView, 'phase' | 'remoteId' | 'error'>): boolean =>
  job.phase === 'failed' && job.remoteId === null && job.error?.code === Code.TooFrequent;

/** Refused for want of credits (1006, 1104) before the service made anything: sent again after a top-up. */
export const refusedForBalance = (job: Pick<JobView, 'phase' | 'remoteId' | 'error'>): boolean =>
  job.phase === 'failed' &&
  job.remoteId === null &&
  (job.error?.code === Code.InsufficientQuota || job.error?.code === Code.InsufficientCredit);

/**
 * A row that waits for its user (a campaign row whose voice does not fit its scene): it is not sent and
 * has not ended, so its run neither starts it nor finishes without it.
 */
export const ROW_HELD = 'held';

export const rowUnderWay = (row: Pick<RowBase, 'state'>): boolean =>
  row.state !== 'pending' && row.state !== ROW_HELD && !ROW_ENDED.has(row.state);

/** The part of the job engine the row engine uses. */
export interface RowJobs {
  /** The ledger's jobs in the scope (a run's: the row engine never asks for every job), newest first; `match`: only those are viewed. */
  list(match: ((record: JobRecord) => boolean) | undefined, scope: JobScope): JobView[];
  /** `stillGoes`: asked the moment before the create leaves; false throws CreateHeldBack, nothing sent. */
  submit(submission: JobSubmission, options?: SubmitOptions): Promise<SubmitResult>;
  /**
   * A job another worker created for this step (its id in the shared intents): recorded and followed here.
   * `remoteId` null: that worker stopped before the answer, and the job is recorded as of unknown outcome.
   */
  adopt?(submission: JobSubmission, remoteId: string | null, sent?: SentCharge): Promise<SubmitResult>;
  /** Jobs a worker made for a queued run of this studio: recorded here, so its Library shows them. */
  receive?(jobs: readonly JobView[]): Promise<void>;
  balanceNow?: BalanceReader;
  /** What a create is expected to cost on the connection now (published, or its recent charges); null: unknown. */
  expectedCredits?(submission: RowStepPrice): Promise<number | null>;
  /** Today's spending on each connection against its limit (the job engine's spending gate). */
  spending?: { dayRoom(connectionId: string): number | null; rows?: RowHolds };
  /** The run stopped (finished, paused, cancelled): its jobs read for its rows need not stay held. */
  releaseRun?(runId: string): void;
  /** Lets go of the ended jobs that `match` and are no longer followed from memory (the ledger keeps them). */
  forgotten?: { forgetWhere(match: (job: JobRecord) => boolean): number };
  /** Each change of a job as the ledger keeps it: a run's costs are kept counted by them (RunTally). */
  subscribeRecords?(listener: (job: JobRecord) => void): () => void;
}

/** One paid step a row has still to make, as far as its price goes (the body may be partial: a video's is made later). */
export interface RowStepPrice {
  kind: JobSubmission['kind'];
  body: Record<string, unknown>;
}

/** What one step of one row is given to work with. */
export interface RowStepContext<Row extends RowBase, Run extends RunBase<Row>> {
  /** The run and the row as they are now (read again before each step). */
  run: Run;
  row: Row;
  /** This row's jobs in the ledger (every take), newest first. */
  jobs(): JobView[];
  /**
   * The job of one paid step of this take: `known` (the ledger's, looked up by the kind) when there is
   * one, else one sent now at the connection's pace. 'waiting' while it is at the service (its end runs
   * the row again), while the service rate-limits, or when the run stopped the row before sending.
   */
  paid(known: JobView | null, make: () => JobSubmission | Promise<JobSubmission>): Promise<JobView | 'waiting'>;
  /** Changes the row (in memory at once, then its record). */
  set(change: (row: Row) => Row): Promise<void>;
  fail(reason: string): Promise<void>;
}

/** How a kind's rows go through a queue to workers (queued-runs.ts); a kind without it runs here only. */
export interface QueuedRows<Row extends RowBase> {
  /** The row's step is the starting studio's own even on a queued run (saving its copy of the result). */
  local(row: Row): boolean;
  /** The row as the studio keeps it once its worker reported how it ended there. */
  received(row: Row, reported: Row): Row;
  /**
   * Whether a worker's report of an earlier take was made from what the row asks now (its values, its
   * template): only then is that take's result taken in for a row made again. Absent: a row's inputs never
   * change between its takes.
   */
  sameMaking?(row: Row, reported: Row): boolean;
}

/** One kind of run (batches, campaigns): its records, its steps and what its end does. */
export interface RowKind<Row extends RowBase, Run extends RunBase<Row>> {
  name: string;
  runs: RunStore<Row, Run>;
  /** Which run and row of this kind a job is (null: not one of its). */
  rowOf(job: Pick<JobRecord, 'purpose'>): { runId: string; row: number } | null;
  /** The state a pending row starts in. */
  firstStep(run: Run, row: Row): string;
  /**
   * The paid steps the row has still to make from where it is (all of them for a row not started): what
   * the budget reserves before the row starts. Absent: the kind's rows are not priced ahead.
   */
  steps?(run: Run, row: Row): RowStepPrice[];
  /** Moves the row's current step on as far as it can now; the engine runs it again while the state changes. */
  step(context: RowStepContext<Row, Run>): Promise<void>;
  /** A pending row of a cancelled run. */
  cancelled(row: Row): Row;
  /** An ended row made again: what it still lacks, given the ledger's jobs (a step whose result has not expired is kept). */
  redo(row: Row, jobs: readonly JobView[]): Row;
  /** The run has ended (every row ended): what it leaves (a manifest), before its state says finished. */
  finishing?(run: Run, jobs: readonly JobView[]): Promise<void>;
  queued?: QueuedRows<Row>;
  /** The run ended or a row changed: the page's events, the one notice. */
  onChange?(run: Run): void;
  onFinished?(run: Run, jobs: readonly JobView[]): void;
}

/** Whether the service made nothing for this take of the row yet (of the row's jobs, any take): held now, it is simply waiting. */
export function madeNothing(jobs: readonly JobView[], row: Pick<RowBase, 'take'>): boolean {
  return !jobs.some((job) => job.remoteId !== null && ((job.purpose as { take?: number }).take ?? 0) === row.take);
}

/** Where the ledger finds one row's jobs by its indexes (its run's, of that row). */
export const rowScope = (task: RowTask): JobScope => ({ runId: task.runId, row: task.row });

/** Whether a ledger record is a job of this task's row (any take). */
export function jobOfRow(
  kind: Pick<RowKind<RowBase, RunBase<RowBase>>, 'rowOf'>,
  task: RowTask,
): (job: JobRecord) => boolean {
  return (job) => {
    const at = kind.rowOf(job);
    return at !== null && at.runId === task.runId && at.row === task.row;
  };
}

/**
 * Where row number `row` is in a run's rows. A run's rows are numbered from 0 in sheet order, so a row is
 * nearly always at its own number: looked at there first, and searched for only when it is not (a run of
 * some rows of a sheet). A search from the start at every change cost a 100,000-row run a scan of the
 * rows before it each time.
 */
export function rowIndex(rows: readonly Pick<RowBase, 'row'>[], row: number): number {
  return rows[row]?.row === row ? row : rows.findIndex((r) => r.row === row);
}

/** The row numbered `row` of a run's rows, if it has one (see rowIndex). */
export function rowOfRun<Row extends Pick<RowBase, 'row'>>(rows: readonly Row[], row: number): Row | undefined {
  const at = rowIndex(rows, row);
  return at === -1 ? undefined : rows[at];
}

/**
 * Facts worked out from a run's row numbers alone (the last row's number), kept by list of rows. A row's
 * change makes a new list with the same numbers: it inherits them (sameRowNumbers), where a fact kept by
 * list alone was worked out again over every row of a large run at each change.
 */
const numberFacts = new WeakMap<object, Map<string, unknown>>();

export function fromRowNumbers<T>(rows: readonly Pick<RowBase, 'row'>[], name: string, work: () => T): T {
  let facts = numberFacts.get(rows);
  if (!facts) numberFacts.set(rows, (facts = new Map()));
  if (!facts.has(name)) facts.set(name, work());
  return facts.get(name) as T;
}

/** `after` holds the same row numbers as `before`, in the same places. */
export function sameRowNumbers(before: readonly Pick<RowBase, 'row'>[], after: readonly Pick<RowBase, 'row'>[]): void {
  const facts = numberFacts.get(before);
  if (facts) numberFacts.set(after, facts);
}
