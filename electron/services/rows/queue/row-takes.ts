import { DelayedError, Job, Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../../host/types';
import type { JobView } from '../../../common/bridge/jobs';
import { rowUnderWay, type RowBase } from '../engine/row-kind';
import { withinMs } from '../engine/within';
import { queueClient, type QueueOutage } from './queue-outage';
import type { RedisTarget } from './redis-target';
import type { RowReport } from './run-shelf';

/** One take of one row of a queued run, as its BullMQ job carries it: the row travels whole. */
export interface RowTake {
  kind: string;
  runId: string;
  row: RowBase;
  /**
   * The jobs the take's workers made so far, as the row's report would carry them, kept with its progress:
   * a worker that takes the row over and starts past a step reports that step's jobs too, which are in
   * no ledger of its own (their charges reach the studio's ledger all the same).
   */
  jobs?: JobView[];
}

/**
 * What a worker tells of a take while it makes it: the row as it stands, and the jobs made for it so far.
 * The jobs may come as a question, asked only when the row changed: a run's memory tells of every change
 * (several a step) and the jobs are a read of the ledger, wasted on the changes that write nothing.
 */
export type TakeProgress = (row: RowBase, jobs?: JobView[] | (() => JobView[])) => void;

/** Where a take is: its run and row, and which take of the row. */
export interface TakeAt {
  kind: string;
  runId: string;
  row: number;
  take: number;
}

/**
 * Where a take is at the queue: answered (its worker's report), failed (its workers stopped while making
 * it, or it could not be made for want of Redis), at the queue (waiting, or being made), or not there.
 */
export type TakeLook = { report: RowReport } | 'failed' | 'at-queue' | null;

/** A take's BullMQ job id: each part encoded (a job id may not hold `:`), so a take handed twice is one job. */
export const takeJobId = ({ kind, runId, row, take }: TakeAt): string =>
  [kind, runId, String(row), String(take)].map((part) => encodeURIComponent(part)).join('/');

/** The take a job id names (null: not a take's). */
export function takeOfJobId(id: string): TakeAt | null {
  const parts = id.split('/').map((part) => decodeURIComponent(part));
  if (parts.length !== 4) return null;
  const [kind, runId, row, take] = parts;
  return { kind, runId, row: Number(row), take: Number(take) };
}

/**
 * A report nobody took in is dropped after a week: the results it links to live 7 days at the service,
 * and the worker's ledger keeps its jobs on disk.
 */
const REPORT_KEPT_SECONDS = 7 * 86_400;
/** Takes started a second: more than any worker starts, so the limiter holds only when told to. */
const NO_CAP = 1_000_000_000;
/** A take's states at the queue before any worker began it (delayed: given back by a worker of another account). */
const NOT_BEGUN: ReadonlySet<string> = new Set(['waiting', 'prioritized', 'delayed']);
/** How long a take's report waits for its last progress write (a Redis that has gone answers none). */
const PROGRESS_WRITE_MS = 2_000;
/** How long one read of the queue's events waits for news before it reads again. */
const EVENTS_BLOCK_MS = 1_000;

/**
 * Thrown by a worker that may not make a take here (it does not serve the run's account): the job goes
 * back to the queue unchanged, to be taken after `ms` by whichever worker asks first.
 */
export class GiveBack extends Error {
  constructor(readonly ms: number) {
    super('given back to the queue');
    this.name = 'GiveBack';
  }
}

interface RowTakesOptions {
  /** `redis://[:password@]host:port`; the password is never logged. */
  url: string;
  /** The prefix of every key the queue (`studio-rows`) writes (default `studio`). */
  prefix?: string;
  /** A worker's takes made at once. */
  concurrency?: number;
  /** The name a worker's connections carry, by which the queue lists it (queue-workers.ts). */
  workerName?: string;
  /** How long a worker's hold on a take lasts unrenewed (BullMQ's lock; 30 s unless given). */
  stallMs?: number;
  log?: Logger;
}

/**
 * What a worker does with a take: makes the row to its end and answers its report (kept as the job's
 * return value). `progress` is told the row at each change while it is made: the step it stands at and
 * what the steps before it made go into the job's data, where a worker that takes the row over reads them.
 */
export type MakeTake = (take: RowTake, progress: TakeProgress) => Promise<RowReport>;

/**
 * Queued runs on BullMQ as BullMQ means it: each take of a row is one job (its id names the run, row and
 * take, so a take handed twice is one job and a worker holds it alone), the row travels in `job.data`,
 * and the worker's report is the processor's return value, kept with the finished job until the studio
 * that queued the run takes it in and removes the job. The studio hears of finished takes on the
 * queue's events (`QueueEvents`), and on opening looks a take up by its id, so a report made while it
 * was closed, interrupted or without the password waits at the queue, never lost and never made again.
 */
export class RowTakes {
  readonly target: RedisTarget;
  readonly queue: Queue<RowTake, RowReport>;
  /** The Redis key prefix of everything it writes, which its workers' connection names start with too. */
  readonly prefix: string;
  private readonly name: string;
  private readonly redis: Redis;
  private readonly outage: QueueOutage;
  private worker: Worker<RowTake, RowReport> | null = null;
  private events: QueueEvents | null = null;
  /** The events' own connection, which XREAD blocks: ours to drop, since BullMQ's close waits on a Redis that has gone. */
  private eventsClient: Redis | null = null;
  private following: Promise<void> | null = null;
  /** Set once closing begins: nothing opens a connection after it. */
  private closed = false;
  private readonly making = new Set<Promise<unknown>>();

  constructor(private readonly options: RowTakesOptions) {
    ({
      target: this.target,
      name: this.name,
      prefix: this.prefix,
      outage: this.outage,
      redis: this.redis,
    } = queueClient(options));
    this.queue = new Queue<RowTake, RowReport>(this.name, {
      connection: this.redis,
      prefix: this.prefix,
      defaultJobOptions: { removeOnComplete: { age: REPORT_KEPT_SECONDS }, removeOnFail: { age: REPORT_KEPT_SECONDS } },
    });
    this.queue.on('error', (error: Error) => this.outage.lost(error));
  }

  /** Hands the take to the workers; a take already handed (waiting, made, or reported) stays the one job. */
  async hand(take: RowTake): Promise<void> {
    const at = { kind: take.kind, runId: take.runId, row: take.row.row, take: take.row.take };
    await this.queue.add('take', take, { jobId: takeJobId(at) });
  }

  async look(at: TakeAt): Promise<TakeLook> {
    const job = await Job.fromId<RowTake, RowReport>(this.queue, takeJobId(at));
    if (!job) return null;
    if (!job.finishedOn) return 'at-queue';
    return job.failedReason || !job.returnvalue ? 'failed' : { report: job.returnvalue };
  }

  /** The take's report, once a worker made it (null: not handed, not made yet, failed, or taken in). */
  async report(at: TakeAt): Promise<RowReport | null> {
    const look = await this.look(at);
    return look !== null && typeof look === 'object' ? look.report : null;
  }

  /**
   * A failed take goes back to waiting, as it was: a worker taking it follows the jobs made before (their
   * intents), so nothing is paid twice. Another studio retrying it first is the same.
   */
  async retry(at: TakeAt): Promise<void> {
    const job = await Job.fromId(this.queue, takeJobId(at));
    await job?.retry('failed').catch(() => undefined);
  }

  /** The studio has taken the take's report in: the job leaves the queue (and so may be handed again). */
  async taken(at: TakeAt): Promise<void> {
    await this.queue.remove(takeJobId(at));
  }

  /**
   * Those of these takes that no worker has begun leave the queue (BullMQ's remove), and are answered: a
   * paused or cancelled run's takes are held back where the queue holds them, rather than each taken by a
   * worker only to be answered "not made". A take being made is locked and stays (its row stops at its
   * next paid request, by the run's state), and one answered keeps its report: each is looked at first.
   */
  async holdBack(ats: readonly TakeAt[]): Promise<TakeAt[]> {
    const removed = await Promise.all(
      ats.map(async (at) => {
        const id = takeJobId(at);
        if (!NOT_BEGUN.has(await this.queue.getJobState(id))) return false;
        return (await this.queue.remove(id)) === 1;
      }),
    );
    return ats.filter((_, i) => removed[i]);
  }

  /** These takes leave the queue, waiting or reported; one being made goes on (it is locked) and reports as any. */
  async drop(ats: readonly TakeAt[]): Promise<void> {
    await Promise.all(ats.map((at) => this.queue.remove(takeJobId(at)).catch(() => 0)));
  }

  /**
   * Calls `ended` for each take a worker finishes (or that fails) from now on. Settles once the queue's events are read,
   * so a take handed after it is heard of when it ends.
   */
  follow(ended: (at: TakeAt) => void): Promise<void> {
    this.following ??= this.read(ended).catch((error: unknown) => {
      this.following = null;
      throw error;
    });
    return this.following;
  }

  private async read(ended: (at: TakeAt) => void): Promise<void> {
    // From the last event now, not from '$' at the first read: an end in between is not missed.
    const last = await this.redis.xrevrange(`${this.prefix}:${this.name}:events`, '+', '-', 'COUNT', 1);
    // Closed while that read was on its way: a client made now would outlive the close.
    if (this.closed) throw new Error('the queue was closed');
    this.eventsClient = new Redis(this.target.options);
    this.eventsClient.on('error', (error: Error) => this.outage.lost(error));
    const events = new QueueEvents(this.name, {
      connection: this.eventsClient,
      prefix: this.prefix,
      autorun: false,
      lastEventId: last[0]?.[0] ?? '0-0',
      // Each read's watchdog (its block + 1 s) is a timer no close clears while Redis is gone: kept short,
      // it cannot hold a stopping command past its few seconds.
      blockingTimeout: EVENTS_BLOCK_MS,
    });
    events.on('error', (error: Error) => this.outage.lost(error));
    const heard = ({ jobId }: { jobId: string }) => {
      const at = takeOfJobId(jobId);
      if (at) ended(at);
    };
    events.on('completed', heard);
    events.on('failed', heard);
    this.events = events;
    void events.run().catch((error: unknown) => this.outage.warn('the queue events cannot be read', error));
  }

  /** This process makes takes from now on, `concurrency` at once; `delivered` hears of each report once it is at the queue. */
  start(make: MakeTake, delivered?: (take: RowTake, report: RowReport) => void): void {
    if (this.worker || this.closed) return;
    const worker = new Worker<RowTake, RowReport>(this.name, (job, token) => this.made(make, job, token), {
      connection: this.target.options,
      prefix: this.prefix,
      concurrency: this.options.concurrency ?? 32,
      ...(this.options.workerName ? { name: this.options.workerName } : {}),
      // A take whose worker died is made once more elsewhere; its creates go through their intents (none paid twice).
      maxStalledCount: 1,
      // No cap of its own on takes started (the shared turns pace requests): a limiter only so that a hold
      // set by hand (`hold`, BullMQ's manual rate limit) applies, which BullMQ checks only with one.
      limiter: { max: NO_CAP, duration: 1_000 },
      ...(this.options.stallMs ? { lockDuration: this.options.stallMs, stalledInterval: this.options.stallMs } : {}),
    });
    worker.on('completed', (job, report) => delivered?.(job.data, report));
    worker.on('failed', (job, error) => {
      if (job) this.outage.warn('a take was cut off', error, { take: job.id });
    });
    worker.on('error', (error: Error) => this.outage.lost(error));
    this.worker = worker;
  }

  /** No worker of the queue starts a take for `ms`: BullMQ's rate limit, set by hand (a 1005 from the account). */
  async hold(ms: number): Promise<void> {
    await this.queue.rateLimit(ms);
  }

  /**
   * Closes within about `graceMs` + 1 s whatever Redis does: makes no more takes, gives those under way
   * `graceMs` to end, then leaves the rest (their jobs go back to the queue once their locks expire, BullMQ's
   * stalled-job recovery) and drops every connection. BullMQ's own close waits for Redis, so on a Redis
   * that has gone it never returned.
   */
  async closeWithin(graceMs: number): Promise<void> {
    this.closed = true;
    // Fetches nothing more; a pause that does not wait touches no Redis.
    await withinMs(this.worker?.pause(true) ?? Promise.resolve(), 200);
    await withinMs(Promise.all([...this.making]), graceMs);
    await withinMs(this.worker?.close(true) ?? Promise.resolve(), 500);
    await withinMs(this.events?.close() ?? Promise.resolve(), 300);
    await withinMs(this.queue.close(), 300);
    this.redis.disconnect();
    this.eventsClient?.disconnect();
    // A connection still trying a Redis that has gone would keep the process alive.
    await withinMs(Promise.all([this.queue.disconnect(), this.events?.disconnect(), this.worker?.disconnect()]), 100);
  }

  private async made(make: MakeTake, job: Job<RowTake, RowReport>, token?: string): Promise<RowReport> {
    const progress = this.progress(job);
    const making = make(job.data, progress.saw);
    this.making.add(making);
    try {
      const report = await making;
      // The last step's write lands before the report, which ends the job (and lets the studio remove it).
      await withinMs(progress.saved(), PROGRESS_WRITE_MS);
      return report;
    } catch (error) {
      if (!(error instanceof GiveBack)) throw error;
      // Back on the queue as it was, for any worker after a while: its studio hears nothing of it.
      await job.moveToDelayed(Date.now() + error.ms, token);
      throw new DelayedError();
    } finally {
      this.making.delete(making);
    }
  }

  /**
   * The take's progress kept in its job's data (`job.updateData`, BullMQ's way of keeping a job's steps,
   * which its process-step-jobs pattern reads on the next attempt): each change of a row under way writes
   * the row as it stands, so a worker that takes the row over after this one is killed starts from that
   * step, with what the steps before made (a campaign row's voiceovers are not asked for again). One write
   * at a time: changes made while one is on its way are written together after it, as the row then
   * stands, since each write sends the whole row (about 3 KB) and only the last matters. In the scale
   * bench a step's changes mostly come after the write before has landed, so this bounds a burst rather
   * than saving writes a row. Progress (`updateProgress`) is for watchers: each write is an event every
   * follower reads, and the studio needs none of them; the intents still say what a step under way may
   * have sent.
   */
  private progress(job: Job<RowTake, RowReport>): { saw: TakeProgress; saved: () => Promise<unknown> } {
    let last = JSON.stringify(job.data.row);
    let next: Parameters<TakeProgress> | null = null;
    let writing: Promise<void> | null = null;
    const drain = async (): Promise<void> => {
      while (next) {
        const [row, jobs] = next;
        next = null;
        const made = typeof jobs === 'function' ? jobs() : jobs;
        const data: RowTake = { ...job.data, row, jobs: takeJobs(job.data.jobs, made) };
        await job
          .updateData(data)
          .catch((error: unknown) => this.outage.warn("a take's progress could not be kept", error, { take: job.id }));
      }
      // In the same turn as the last look at `next`: a change seen after it starts a write of its own.
      writing = null;
    };
    return {
      saw: (row, jobs) => {
        const text = JSON.stringify(row);
        if (text === last || !rowUnderWay(row)) return;
        last = text;
        // A change given no jobs keeps those of the change it is written together with.
        next = [row, jobs ?? next?.[1]];
        writing ??= drain();
      },
      saved: () => writing ?? Promise.resolve(),
    };
  }
}

/** A take's jobs so far: those of its earlier workers and this one's, each once (by the service's id, else its own). */
export function takeJobs(earlier: readonly JobView[] = [], own: readonly JobView[] = []): JobView[] {
  const byId = new Map<string, JobView>();
  for (const job of [...earlier, ...own]) byId.set(job.remoteId ?? job.id, job);
  return [...byId.values()];
}
