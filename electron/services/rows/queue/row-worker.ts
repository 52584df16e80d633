import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { Logger } from '../../host/types';
import type { JobView } from '../../../common/bridge/jobs';
import { GiveBack, RowTakes, takeJobs, type RowTake, type TakeProgress } from './row-takes';
import type { RowBase, RunBase } from '../engine/row-kind';
import { storageMismatch, type RunAccount } from '../../client/account-proof';
import { RunShelf, type RowReport } from './run-shelf';
import { withinMs } from '../engine/within';
import { RedisBudget } from '../money/redis-budget';
import { accountPool, rowName, runName, runPool } from '../../jobs/row-holds';
import { ACCOUNT_WIDE } from '../../jobs/account-creates';

export type QueuedRun = Omit<RunBase<RowBase>, 'rows'>;

/** What a worker's row may ask while it is made, and tell. */
export interface RowLive {
  /** Whether its queued run is still running (asked before each paid request). */
  running(): Promise<boolean>;
  /**
   * The row as it stands now (its step, what the steps before made) and the jobs made for it so far: kept
   * at the queue for a worker that takes it over. Given as a function, the jobs are read only when the
   * row changed (a change that writes nothing reads no ledger).
   */
  progress(row: RowBase, jobs?: JobView[] | (() => JobView[])): void;
}

/** How a worker makes one row of a kind: to its end (or its run's pause), here, with this process's own services. */
export interface RowMaker {
  kind: string;
  /**
   * Whether its rows send the service files of this worker's storage (a campaign's pictures): only such a
   * kind asks that the worker's storage be its run's. A batch's speech sends none.
   */
  files?: boolean;
  make(run: QueuedRun, row: RowBase, live: RowLive): Promise<Omit<RowReport, 'row' | 'take' | 'worker'>>;
  /**
   * The row's report was delivered (it carries the row's jobs to the studio): what this worker holds of the
   * row goes from its memory, its ended jobs included (its ledger on disk keeps them).
   */
  delivered?(run: QueuedRun, row: RowBase, report: Omit<RowReport, 'row' | 'take' | 'worker'>): Promise<void>;
}

export interface RowWorkerOptions {
  /** `redis://[:password@]host:port`; the password is never logged. */
  url: string;
  makers: readonly RowMaker[];
  /** How this worker is named on the queue, in its facts and in intents (default: host name and process id). */
  id?: string;
  /** Rows made at once (each is mostly waiting for the service). */
  concurrency?: number;
  stallMs?: number;
  prefix?: string;
  log?: Logger;
  /** The account this worker serves, for a run's id (null: no credentials); absent: runs are not checked. */
  account?: (runId: string) => Promise<RunAccount | null>;
  /** Why the pictures this worker renders could not be fetched by the service at an origin (null: they can). */
  media?: (origin: string) => Promise<string | null>;
  /** Told once per run whose rows this worker refuses, and why. */
  refused?: (message: string) => void;
  /** How long a refused row stays off the queue before any worker may take it again (the run's own take it meanwhile). */
  refusedHoldMs?: number;
}

/**
 * A headless worker of queued runs (`studio worker`): it takes rows' takes from the queue (each a BullMQ
 * job carrying its row), reads the run from Redis once (never a path of the studio that queued it), makes
 * the row to its end with this process's own services (its ledger, its connection, its folder), and
 * answers how it ended: the report is the job's return value, kept at the queue until the studio takes it
 * in. A take whose worker died is made again by another (BullMQ's stalled-job recovery); every paid create
 * inside goes through its shared intent, so that take follows the jobs already made instead of paying again.
 */
export class RowWorker {
  readonly id: string;
  private readonly takes: RowTakes;
  private readonly redis: Redis;
  private readonly shelf: RunShelf;
  /** Where the studio that queued a row holds its whole price: a row is made only while held there. */
  private readonly budget: RedisBudget;
  private readonly makers: Map<string, RowMaker>;
  private readonly runs = new Map<string, Promise<QueuedRun | null>>();
  /** Runs this worker refuses, by `kind/runId`, and why: said once in its log, and in its facts for the run's page. */
  private readonly refusedRuns = new Map<string, string>();
  private readonly media = new Map<string, Promise<string | null>>();
  private readonly startedAt = Date.now();
  /**
   * The rows this worker is making now, by `kind/runId/row`. BullMQ gives a row whose lock was not renewed
   * in time (a busy machine) back to the queue while its worker still makes it, and may hand it to the
   * same worker again: made twice at once, the second attempt found the first's create intent without its
   * answer and failed the row as of unknown outcome. A second delivery waits for the first instead.
   */
  private readonly making = new Map<string, Promise<RowReport>>();
  private running = 0;
  private done = 0;

  constructor(private readonly options: RowWorkerOptions) {
    this.id = options.id ?? `${hostname()}-${process.pid}`;
    this.makers = new Map(options.makers.map((m) => [m.kind, m]));
    this.takes = new RowTakes({
      url: options.url,
      prefix: options.prefix,
      concurrency: options.concurrency ?? 32,
      workerName: this.id,
      stallMs: options.stallMs,
      log: options.log,
    });
    this.redis = new Redis(this.takes.target.options);
    this.redis.on('error', () => undefined);
    this.shelf = new RunShelf(this.redis, options.prefix);
    this.budget = new RedisBudget(this.redis, options.prefix);
  }

  /** Where the worker listens, shown without the password. */
  get shown(): string {
    return this.takes.target.shown;
  }

  start(): void {
    this.takes.start(
      (take, progress) => this.takeOnce(take, progress),
      (take, report) => void this.delivered(take, report),
    );
    void this.tell();
  }

  /** No worker of the queue starts a row for `ms` (the account answered "too frequent"); rows under way go on at their turns. */
  async holdTakes(ms: number): Promise<void> {
    await this.takes.hold(ms).catch(() => undefined);
  }

  /**
   * Stops within about `graceMs` + 2 s in any state (Redis gone included): the rows under way get
   * `graceMs` to end, and a row still under way then is left to another worker, which follows the jobs
   * this one made (its intents) rather than paying for them again.
   */
  async stopWithin(graceMs: number): Promise<void> {
    await this.takes.closeWithin(graceMs);
    // Its facts go with it, when Redis still answers (the queue lists it no more either way).
    await withinMs(this.shelf.forgetWorkers([this.id]), 300);
    this.redis.disconnect();
  }

  private takeOnce(take: RowTake, progress: TakeProgress = () => undefined): Promise<RowReport> {
    const key = `${take.kind}/${take.runId}/${take.row.row}`;
    const under = this.making.get(key);
    if (under) return under;
    const work = this.take(take, progress).finally(() => this.making.delete(key));
    this.making.set(key, work);
    return work;
  }

  private async take({ kind, runId, row, jobs: earlier }: RowTake, progress: TakeProgress): Promise<RowReport> {
    const maker = this.makers.get(kind);
    const run = await this.run(kind, runId);
    const report = (made: Omit<RowReport, 'row' | 'take' | 'worker'>): RowReport => ({
      ...made,
      row: row.row,
      take: row.take,
      worker: this.id,
    });
    // The run ended and its records went (or the run is not running): the row waits unmade.
    if (!run || (await this.shelf.state(kind, runId)) !== 'running') return report({ outcome: 'not-run', record: row });
    // Given back unmade, to the queue rather than to the studio: the run waits, on the queue, for a
    // worker of its own account, and this worker holds no place of its own meanwhile.
    if ((await this.refusal(kind, runId, run)) !== null) throw new GiveBack(this.options.refusedHoldMs ?? 3_000);
    // Its creates go on the strength of its studio's hold on the row's whole price (they check no money
    // here): a row whose hold was let go (its run paused) waits on the queue until held again.
    const hold = await this.hold(kind, runId, row);
    if (hold === null) throw new GiveBack(this.options.refusedHoldMs ?? 3_000);
    if (!maker)
      return report({
        outcome: 'ended',
        record: { ...row, state: 'failed', problems: [`the worker ${this.id} cannot make ${kind} rows`] },
      });
    this.running += 1;
    void this.tell();
    try {
      // Paused where it was started: no paid request of this row leaves after that (an unreadable state counts as paused).
      const running = async () => (await this.shelf.state(kind, runId).catch(() => null)) === 'running';
      const made = await maker.make(run, row, { running, progress });
      // A row taken over reports the jobs its earlier workers made too: the steps it started past are in no ledger here.
      return report(earlier?.length ? { ...made, jobs: takeJobs(earlier, made.jobs) } : made);
    } catch (error) {
      const reason = `the worker ${this.id} could not make it: ${error instanceof Error ? error.message : String(error)}`;
      return report({ outcome: 'ended', record: { ...row, state: 'failed', problems: [reason] } });
    } finally {
      this.running -= 1;
      void this.tell();
      // A hold taken over from a studio gone goes once the row is made (its report carries the charges).
      if (hold.taken) void this.budget.release(hold.row, hold.pools).catch(() => undefined);
    }
  }

  /** The take's report is at the queue: what this worker holds of the row goes from its memory (its ledger keeps it). */
  private async delivered({ kind, runId, row }: RowTake, report: RowReport): Promise<void> {
    if (report.outcome === 'not-run') return;
    // Paused (at its cap, perhaps): the run is read again at its next take, where its studio may have raised it.
    if (report.outcome === 'paused') this.runs.delete(`${kind}/${runId}`);
    this.done += 1;
    void this.tell();
    const maker = this.makers.get(kind);
    const run = await this.run(kind, runId);
    if (!maker?.delivered || !run) return;
    // Never a failed report after a delivered one: a row whose records stay is only memory kept.
    await maker.delivered(run, row, report).catch((error: unknown) =>
      this.options.log?.warn('a worker could not let go of a row', {
        run: runId,
        row: row.row,
        error: String(error),
      }),
    );
  }

  /**
   * Why this worker may not make the run's rows (null: it may): the run was priced on another service or
   * account than this worker serves, the worker has no credentials, its pictures would go to another
   * storage than the run's, or to one the service cannot fetch from. Said once per run.
   */
  private async refusal(kind: string, runId: string, run: QueuedRun): Promise<string | null> {
    if (!run.account || !this.options.account) return null;
    const own = await this.options.account(run.id).catch(() => null);
    const why =
      own === null
        ? `this worker has no credentials for ${run.account.origin}`
        : own.proof === run.account.proof
          ? null
          : own.origin !== run.account.origin
            ? `the run is priced on ${run.account.origin} and this worker serves ${own.origin} with other credentials`
            : `this worker's credentials are not those of the account the run is priced on (${run.account.origin})`;
    // The run's storage is the run's: a worker of its account whose pictures go elsewhere makes none of its rows.
    const files = this.makers.get(kind)?.files === true;
    const storage = why === null && files ? storageMismatch(run.account.storage, own?.storage) : null;
    const media = why === null && storage === null ? await this.mediaProblem(run.account.origin) : null;
    const problem = why ?? storage ?? media;
    if (problem === null) return null;
    const key = `${kind}/${runId}`;
    if (!this.refusedRuns.has(key)) {
      // A long-lived worker keeps the latest few: its facts stay small.
      if (this.refusedRuns.size >= 16) this.refusedRuns.delete(this.refusedRuns.keys().next().value as string);
      const fix =
        why !== null
          ? "Start it with that service's address and credentials."
          : storage !== null
            ? "Start it with the run's storage (--media-storage)."
            : 'Start it with a storage the service reaches (--media-storage).';
      const message = `Worker ${this.id} makes no row of ${kind} ${runId}: ${problem}. ${fix}`;
      this.refusedRuns.set(key, message);
      this.options.refused?.(message);
      this.options.log?.warn('a worker refuses a run', { run: key, why: problem });
      void this.tell();
    }
    return problem;
  }

  /**
   * The row's hold on the queue's Redis: its studio's, or taken over from a studio gone (then this
   * worker's until the row is made); null: none (never held, let go, or unreadable). Its pools are the
   * run's and the account's, named as the studio names them (the account by its proof, no secret).
   */
  private async hold(
    kind: string,
    runId: string,
    row: RowBase,
  ): Promise<{ row: string; pools: string[]; taken: boolean } | null> {
    const name = rowName(kind, runId, row.row);
    const proof = (await this.options.account?.(ACCOUNT_WIDE).catch(() => null))?.proof;
    const pools = [runPool(runName(kind, runId)), ...(proof ? [accountPool(proof)] : [])];
    const held = await this.budget.heldOrTaken(name, pools).catch(() => null);
    return held === null ? null : { row: name, pools, taken: held === 'taken' };
  }

  /** Asked once per service: the worker's storage does not change while it runs. */
  private mediaProblem(origin: string): Promise<string | null> {
    let known = this.media.get(origin);
    if (!known) {
      known = (this.options.media?.(origin) ?? Promise.resolve(null)).catch(() => null);
      this.media.set(origin, known);
    }
    return known;
  }

  /** The run's record, read once per run (a run is thousands of rows). */
  private run(kind: string, runId: string): Promise<QueuedRun | null> {
    const key = `${kind}/${runId}`;
    let found = this.runs.get(key);
    if (!found) {
      if (this.runs.size >= 64) this.runs.clear();
      found = this.shelf.run(kind, runId);
      this.runs.set(key, found);
      // Not there yet or an error: asked again next time.
      void found.then((run) => run ?? this.runs.delete(key)).catch(() => this.runs.delete(key));
    }
    return found;
  }

  /** What it makes and has made, written when that changes (the queue itself says whether it is there). */
  private async tell(): Promise<void> {
    await this.shelf
      .tell({
        id: this.id,
        host: hostname(),
        pid: process.pid,
        startedAt: this.startedAt,
        at: Date.now(),
        running: this.running,
        done: this.done,
        refuses: Object.fromEntries(this.refusedRuns),
      })
      .catch(() => undefined);
  }
}
