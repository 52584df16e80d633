import type { JobRecord, JobView } from '../../../common/bridge/jobs';
import type { Redis } from 'ioredis';
import type { RunPause } from '../../../common/jobs/run-pause';
import type { RowBase, RunBase, RunState } from '../engine/row-kind';

/** What a worker reports of one row it was given: the row as it ended there, and where its file went. */
export interface RowReport {
  row: number;
  take: number;
  /** `ended`: the row reached an end on the worker (done, failed, held…); `not-run`: the run was not running. */
  outcome: 'ended' | 'not-run' | 'paused';
  /** The row as the worker left it (its state, problems and the links of what it made). */
  record: RowBase;
  /** Why the worker's account stopped it (out of credits, the day's limit): the whole run pauses. */
  pause?: RunPause | null;
  /**
   * The worker's own copy of the row's result: its folder's path (on the worker's machine), bytes, sha256,
   * and, from a worker given a bucket, where the file is there (no link: the key names it for good).
   */
  file?: {
    path: string;
    bytes: number;
    sha256: string;
    /** The storage by its name, its bucket and the object's whole key (storage/result-bucket.ts). */
    bucket?: { storage: string; bucket: string; key: string } | null;
  } | null;
  /** The row's jobs as the worker's ledger has them (their purpose naming the queued run). */
  jobs?: JobView[];
  worker: string;
}

/**
 * Whether a worker's report carries this job of the row: the service made it (it has an id), or may have
 * (of unknown outcome: a worker stopped between its intent and the answer), so the studio's records keep
 * what may have been charged. Creates refused before anything was made stay in the worker's ledger alone.
 */
export const reportedJob = (job: Pick<JobRecord, 'remoteId' | 'phase'>): boolean =>
  job.remoteId !== null || job.phase === 'outcome-unknown';

/**
 * What a worker says of itself, written when it changes (a row taken or ended, a run refused): who, where,
 * since when, and what it has done. Whether it is there now is the queue's to say (queue-workers.ts).
 */
export interface WorkerFacts {
  id: string;
  host: string;
  pid: number;
  startedAt: number;
  /** When it last said this (its own clock). */
  at: number;
  running: number;
  done: number;
  /** Runs whose rows this worker gives back unmade, by `kind/runId`, with why (the page shows it on the run). */
  refuses?: Record<string, string>;
}

/**
 * A queued run's own record in Redis, so a worker on any machine needs nothing but the queue: the run
 * without its rows (its template, its target) under one key and its state under another, which workers
 * read before each paid request. Its rows travel in the queue's jobs and come back as their return values
 * (row-takes.ts); the workers' facts are kept here too. No service credential and no local path of the
 * studio is written here (the template's local files are links by the time the run is queued). A run's
 * record is removed when its studio has taken in the last report.
 */
export class RunShelf {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'studio',
  ) {}

  async putRun(kind: string, run: RunBase<RowBase>): Promise<void> {
    const { rows: _rows, ...rest } = run;
    await this.redis.set(this.key(kind, run.id), JSON.stringify(rest));
    await this.redis.set(this.key(kind, run.id, 'state'), run.state);
  }

  async run(kind: string, runId: string): Promise<Omit<RunBase<RowBase>, 'rows'> | null> {
    const text = await this.redis.get(this.key(kind, runId));
    return text === null ? null : (JSON.parse(text) as Omit<RunBase<RowBase>, 'rows'>);
  }

  async setState(kind: string, runId: string, state: RunState): Promise<void> {
    await this.redis.set(this.key(kind, runId, 'state'), state, 'XX');
  }

  async state(kind: string, runId: string): Promise<RunState | null> {
    return (await this.redis.get(this.key(kind, runId, 'state'))) as RunState | null;
  }

  /** The run has ended for its studio: nothing of it stays in Redis. */
  async forget(kind: string, runId: string): Promise<void> {
    await this.redis.del(this.key(kind, runId), this.key(kind, runId, 'state'));
  }

  /** What a worker says of itself, in one hash of every worker's (no key to look for, none to expire). */
  async tell(facts: WorkerFacts): Promise<void> {
    await this.redis.hset(this.workersKey(), facts.id, JSON.stringify(facts));
  }

  /** Workers' facts that no longer matter (a worker that stopped, or was killed long ago). */
  async forgetWorkers(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.redis.hdel(this.workersKey(), ...ids);
  }

  /** What every worker last said of itself, by its id, whether or not it is there now. */
  async workerFacts(): Promise<Map<string, WorkerFacts>> {
    const all = await this.redis.hgetall(this.workersKey());
    return new Map(Object.entries(all).map(([id, text]) => [id, JSON.parse(text) as WorkerFacts]));
  }

  private workersKey(): string {
    return `${this.prefix}:workers`;
  }

  private key(kind: string, runId: string, part?: string): string {
    return [this.prefix, 'run', encodeURIComponent(kind), encodeURIComponent(runId), ...(part ? [part] : [])].join(':');
  }
}
