import type { JobRecord } from '../../common/bridge/jobs';
import { JOB_KINDS } from '../../common/jobs/kinds';
import type { ForgottenJobs } from './forgotten-jobs';
import { inScope, OPEN_PHASES, rowOfRecord, runOf, type JobScope } from './job-scope';
import type { LedgerStorage } from './ledger';
import type { HeldJobs } from './held-jobs';

/** Finished jobs of each kind a start reads back, for the poll timing's learning (it keeps 50 a kind). */
const TIMING_SAMPLES = 50;
/** Jobs looked up one by one (a link, a "Check again") kept read; past this the oldest lookups go. */
const LOOKUPS_KEPT = 1_000;

/**
 * What a start holds of the ledger: every job not ended for good (followed, or waiting for "Check
 * again"), those of the last `recentMs` (a duplicate submit is found among them), those ended that the
 * reactor has not acted on, and each kind's latest finished jobs (the poll timing learns from them).
 * Everything else stays in the ledger and is read when asked for (LedgerReads).
 */
export function workingSet(storage: LedgerStorage, now: number, recentMs: number): JobRecord[] {
  const found = new Map<string, JobRecord>();
  const add = (records: readonly JobRecord[]) => records.forEach((r) => found.set(r.id, r));
  add(storage.find({ phases: OPEN_PHASES }));
  add(storage.find({ createdFrom: now - recentMs }));
  add(storage.find({ unreacted: true }));
  for (const kind of JOB_KINDS) add(storage.find({ kinds: [kind], phases: ['completed'], newest: TIMING_SAMPLES }));
  return [...found.values()].sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * The engine's reads of jobs it does not hold in memory. The records in memory (`own`) are the newest
 * truth of every job they name; the others are read from the ledger by scope, and kept as read (a run's
 * jobs once its first row asks, a job looked up by id) until a change takes one into memory: the ledger
 * holds the same, so nothing kept here can be out of date.
 */
export class LedgerReads {
  /** By run: the run's jobs the ledger held when first asked, less those in memory. */
  private readonly runs = new Map<string, KeptRun>();
  private readonly lookups = new Map<string, JobRecord>();

  constructor(
    private readonly storage: LedgerStorage,
    private readonly own: HeldJobs,
    private readonly forgotten: Pick<ForgottenJobs, 'giveBack'>,
  ) {}

  /** The jobs in the scope that `match`, newest first: those in memory as they are now, the rest as kept. */
  find(scope: JobScope, match?: (record: JobRecord) => boolean): JobRecord[] {
    const { newest, ...where } = scope;
    // A run's (or one row's) jobs come from the indexes: a row's step asks for its few jobs among its
    // run's thousands at every turn, and looking through every job made a campaign slower as it went.
    const { runId, row } = where;
    // A copy saved from a link asks for its job by the link, once per row saved: indexed likewise.
    const held =
      runId !== undefined
        ? this.own.ofRun(runId, row)
        : where.resultUrl !== undefined
          ? this.own.withLink(where.resultUrl)
          : this.own.values();
    const kept = runId !== undefined ? this.run(runId).of(row) : this.fromLedger(where);
    const found: JobRecord[] = [];
    for (const records of [held, kept])
      for (const record of records) if ((!match || match(record)) && inScope(where, record)) found.push(record);
    found.sort((a, b) => b.createdAt - a.createdAt);
    return newest === undefined ? found : found.slice(0, newest);
  }

  /** One job, in memory or read from the ledger; undefined when the ledger has none of that id. */
  get(id: string): JobRecord | undefined {
    const held = this.own.get(id) ?? this.lookups.get(id);
    if (held) return held;
    for (const run of this.runs.values()) if (run.has(id)) return run.get(id);
    const read = this.storage.find({ ids: [id] })[0];
    if (!read) return undefined;
    if (this.lookups.size >= LOOKUPS_KEPT) this.lookups.delete(this.lookups.keys().next().value as string);
    this.lookups.set(id, read);
    return read;
  }

  /**
   * The job, in memory from now on (to change it): one read from the ledger stops standing in the
   * spending gate's totals, which count it from its record from here.
   */
  take(id: string): JobRecord | undefined {
    const held = this.own.get(id);
    if (held) return held;
    const read = this.get(id);
    if (!read) return undefined;
    this.drop(read);
    this.forgotten.giveBack(read);
    this.own.set(id, read);
    return read;
  }

  /**
   * Forgets a job kept as read (it left memory for good, or it is being taken into memory), and its
   * run's list once nothing of it is kept: a worker's one-row runs come and go by the thousand.
   */
  drop(record: JobRecord): void {
    this.lookups.delete(record.id);
    const runId = runOf(record);
    const run = runId === null ? undefined : this.runs.get(runId);
    run?.delete(record.id);
    if (runId !== null && run?.size === 0) this.runs.delete(runId);
  }

  /**
   * Lets go of a run's jobs kept as read: the run stopped (finished, paused, cancelled), so nothing
   * works on them now, and a campaign of 300,000 jobs must not stay held for the session because it ran
   * once. A later ask reads them again.
   */
  forgetRun(runId: string): void {
    this.runs.delete(runId);
  }

  /** Whether a run's jobs are kept as read (what a stopped run must not leave behind). */
  holdsRun(runId: string): boolean {
    return this.runs.has(runId);
  }

  private run(runId: string): KeptRun {
    let run = this.runs.get(runId);
    if (!run) {
      run = new KeptRun();
      for (const record of this.storage.find({ runId })) if (!this.own.has(record.id)) run.set(record);
      this.runs.set(runId, run);
    }
    return run;
  }

  /** The ledger's jobs in the scope that memory does not hold (memory's copy is the newer one). */
  private fromLedger(scope: JobScope): JobRecord[] {
    return this.storage.find(scope).filter((r) => !this.own.has(r.id) && inScope(scope, r));
  }
}

/** One run's jobs kept as read from the ledger, by id and by row. */
class KeptRun {
  private readonly all = new Map<string, JobRecord>();
  private readonly byRow = new Map<number, Map<string, JobRecord>>();

  get size(): number {
    return this.all.size;
  }

  has(id: string): boolean {
    return this.all.has(id);
  }

  get(id: string): JobRecord | undefined {
    return this.all.get(id);
  }

  set(record: JobRecord): void {
    this.all.set(record.id, record);
    const row = rowOfRecord(record);
    if (row === null) return;
    const jobs = this.byRow.get(row) ?? new Map<string, JobRecord>();
    jobs.set(record.id, record);
    this.byRow.set(row, jobs);
  }

  delete(id: string): void {
    const record = this.all.get(id);
    if (!record) return;
    this.all.delete(id);
    const row = rowOfRecord(record);
    const jobs = row === null ? undefined : this.byRow.get(row);
    jobs?.delete(id);
    if (row !== null && jobs?.size === 0) this.byRow.delete(row);
  }

  /** Its jobs, or one row's. */
  of(row?: number): Iterable<JobRecord> {
    return (row === undefined ? this.all : this.byRow.get(row))?.values() ?? [];
  }
}
