import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { RedisTarget } from './redis-target';
import type { RowQueue, RowTask } from '../engine/row-queue';
import { withinMs } from '../engine/within';
import { queueClient, type QueueOutage } from './queue-outage';
import type { RowTakesOptions } from './row-takes';

/**
 * As a queue of takes is opened (row-takes.ts), but each job a step: `stalledRuns` defaults to 0, since a
 * step may be a paid create and BullMQ would run a stalled one again.
 */
export interface BullmqRowQueueOptions extends RowTakesOptions {
  /** Failed jobs (a step cut off by a dead worker) kept for review; older ones are removed. */
  keepFailed?: number;
}

type Step = (task: RowTask) => Promise<void>;

/** A task's BullMQ job id: its key, with each part encoded (a job id may not hold `:`). */
export const rowJobId = (task: RowTask): string =>
  [task.kind, task.runId, String(task.row)].map((part) => encodeURIComponent(part)).join('/');

const WAITING_STATES = ['wait', 'delayed', 'prioritized'] as const;
/** A re-ask that no worker saw (its process died) is forgotten after a day; the engine asks again on resume. */
const ASKED_TTL_MS = 86_400_000;

/**
 * The RowQueue on BullMQ over Redis: each task is a job whose id is the task's key, so a row asked for
 * twice while it waits is one job, and two workers never hold the same row (BullMQ gives a job to one).
 * A row asked for while its step runs must run again after it; BullMQ ignores an add whose id is taken,
 * so each ask also sets the row's "asked" mark in Redis before adding. The step clears the mark before
 * reading its row and runs again while the mark comes back; once the job is finished and removed, the
 * mark is read one last time, and a mark set meanwhile adds the job again (an ask after that read finds
 * the job gone and adds it itself). Retries, stalls and the rate limit are BullMQ's; a stalled step is
 * not run again (`maxStalledCount: 0`), since a step may be a paid create. Finished jobs are removed.
 */
export class BullmqRowQueue implements RowQueue {
  readonly target: RedisTarget;
  readonly queue: Queue<RowTask>;
  private readonly redis: Redis;
  private worker: Worker<RowTask> | null = null;
  private readonly name: string;
  /** The Redis key prefix of everything it writes, which its workers' connection names start with too. */
  readonly prefix: string;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly wakers = new Set<() => void>();
  private readonly steps = new Set<Promise<void>>();
  private stopped = false;
  private closing: Promise<void> | null = null;
  private readonly outage: QueueOutage;

  constructor(private readonly options: BullmqRowQueueOptions) {
    ({
      target: this.target,
      name: this.name,
      prefix: this.prefix,
      outage: this.outage,
      redis: this.redis,
    } = queueClient(options));
    this.queue = new Queue<RowTask>(this.name, {
      connection: this.redis,
      prefix: this.prefix,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: { count: options.keepFailed ?? 1000 } },
    });
    this.queue.on('error', (error: Error) => this.outage.lost(error));
    options.log?.info('row steps go through a BullMQ queue', { queue: this.name, redis: this.target.shown });
  }

  start(step: Step): void {
    if (this.worker || this.stopped) return;
    const worker = new Worker<RowTask>(this.name, (job) => this.tracked(this.runJob(job, step)), {
      connection: this.target.options,
      prefix: this.prefix,
      concurrency: this.options.concurrency ?? 100,
      ...(this.options.workerName ? { name: this.options.workerName } : {}),
      maxStalledCount: this.options.stalledRuns ?? 0,
      ...(this.options.stallMs ? { lockDuration: this.options.stallMs, stalledInterval: this.options.stallMs } : {}),
    });
    // First listener of each: a re-add is tracked before idle() hears of the end and looks again.
    worker.on('completed', (job) => this.track(this.askedAfterEnd(job)));
    worker.on('failed', (job, error) => {
      if (job) this.warn('a row step was cut off', error, { task: job.id });
      this.wake();
    });
    worker.on('completed', () => this.wake());
    worker.on('error', (error: Error) => this.outage.lost(error));
    this.worker = worker;
  }

  push(task: RowTask): void {
    if (this.stopped) return;
    const id = rowJobId(task);
    this.track(
      (async () => {
        await this.redis.set(this.askedKey(id), '1', 'PX', ASKED_TTL_MS);
        await this.queue.add('row', task, { jobId: id });
      })(),
    );
  }

  drop(kind: string, runId: string): void {
    const before = [...this.pending];
    this.track(
      (async () => {
        // What was pushed before the drop is in Redis first, so the drop finds it.
        await Promise.all(before);
        const mine = (await this.queue.getJobs([...WAITING_STATES])).filter(
          (job) => job.data.kind === kind && job.data.runId === runId,
        );
        // A job that started meanwhile cannot be removed, and goes on (as a running step does in any queue).
        await Promise.all(mine.map((job) => job.remove().catch(() => undefined)));
      })(),
    );
  }

  /**
   * Settles once nothing waits or runs on the queue, looking again at each end of this process's worker's
   * steps (never on a timer). Without a worker of its own (`start` not called) it waits for its own pushes only.
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.pending.size > 0) {
        await Promise.all([...this.pending]);
        continue;
      }
      if (!this.worker || this.stopped) return;
      const woken = new Promise<void>((resolve) => this.wakers.add(resolve));
      const counts = await this.queue.getJobCounts(...WAITING_STATES, 'active');
      if (this.pending.size === 0 && Object.values(counts).every((n) => n === 0)) return;
      await woken;
    }
  }

  /** Settles once what this process pushed and dropped so far is in Redis. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** This process takes no more steps; jobs waiting stay in Redis for other workers (or the next start). */
  stop(): void {
    this.halt(false);
  }

  /**
   * Stops, lets the steps under way end (or, with `force`, leaves them), and closes every connection. What
   * waits on Redis is given a few seconds: a Redis that has gone would otherwise hold the close for ever.
   */
  async close(force = false): Promise<void> {
    this.halt(force);
    await this.closing;
    await withinMs(this.settled(), 5_000);
    await withinMs(this.queue.close(), 5_000);
    await withinMs(this.redis.quit(), 2_000);
    this.redis.disconnect();
  }

  /**
   * Closes within about `graceMs` + 1 s whatever Redis does (a worker told to stop): takes no more steps,
   * gives the steps under way `graceMs` to end, then leaves the rest (their jobs go back to the queue once
   * their locks expire, BullMQ's stalled-job recovery) and drops every connection. BullMQ's own close
   * waits for the steps and then for Redis, so on a Redis that has gone it never returned.
   */
  async closeWithin(graceMs: number): Promise<void> {
    if (this.stopped) return this.close(true);
    this.stopped = true;
    this.wake();
    // Fetches nothing more; a pause that does not wait touches no Redis.
    await withinMs(this.worker?.pause(true) ?? Promise.resolve(), 200);
    await withinMs(Promise.all([...this.steps]), graceMs);
    this.closing = (this.worker?.close(true) ?? Promise.resolve()).catch(() => undefined);
    await withinMs(this.closing, 500);
    await withinMs(this.settled(), 200);
    await withinMs(this.queue.close(), 300);
    this.redis.disconnect();
    await withinMs(this.queue.disconnect(), 100);
  }

  private halt(force: boolean): void {
    if (this.stopped) return;
    this.stopped = true;
    this.closing = (this.worker?.close(force) ?? Promise.resolve()).catch(() => undefined);
    this.wake();
  }

  private async runJob(job: Job<RowTask>, step: Step): Promise<void> {
    const asked = this.askedKey(job.id ?? rowJobId(job.data));
    await this.redis.del(asked);
    do {
      if (this.stopped) {
        // Taken as this process stops: asked again, so the job comes back once it is removed (askedAfterEnd).
        await this.redis.set(asked, '1', 'PX', ASKED_TTL_MS);
        return;
      }
      await step(job.data).catch((error: unknown) => this.warn('a row step threw', error, { task: job.id }));
    } while ((await this.redis.getdel(asked)) !== null);
  }

  /** The job is finished and gone: an ask that came after the step's last look adds it again. */
  private async askedAfterEnd(job: Job<RowTask>): Promise<void> {
    const id = job.id ?? rowJobId(job.data);
    if ((await this.redis.get(this.askedKey(id))) !== null) await this.queue.add('row', job.data, { jobId: id });
  }

  private askedKey(jobId: string): string {
    return `${this.prefix}:${this.name}:asked:${jobId}`;
  }

  /** A step this process runs, known until it ends (so a close can wait for it). */
  private tracked(step: Promise<void>): Promise<void> {
    this.steps.add(step);
    void step.catch(() => undefined).finally(() => this.steps.delete(step));
    return step;
  }

  private track(work: Promise<unknown>): void {
    const quiet = work.catch((error: unknown) => this.warn('the row queue could not reach Redis', error));
    this.pending.add(quiet);
    void quiet.finally(() => {
      this.pending.delete(quiet);
      this.wake();
    });
  }

  private wake(): void {
    for (const resolve of this.wakers) resolve();
    this.wakers.clear();
  }

  private warn(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
    this.outage.warn(message, error, fields);
  }
}
