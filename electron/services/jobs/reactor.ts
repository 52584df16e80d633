import type { JobRecord, PurposeType } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import type { JobScope } from './job-scope';

/**
 * What a purpose's handler is given: the job as it ended. It may run again after a crash: be idempotent.
 * It answers 'later' when this host leaves its part to another (a command line leaves the archive to
 * the studio): the job is then not marked, and the next host to start acts on it again.
 */
export type ReactionHandler = (job: JobRecord) => Promise<void | 'later'>;

/** The engine as the reactor sees it: its records (reactedAt is no part of what the page sees). */
export interface ReactorEngine {
  records(match: undefined, scope: JobScope): JobRecord[];
  subscribeRecords(listener: (job: JobRecord) => void): () => void;
  markReacted(id: string): Promise<void>;
}

/** A job's end that calls for a reaction: it completed, or it ended without a result for good. */
const ENDED = new Set<JobRecord['phase']>(['completed', 'failed', 'outcome-unknown']);

/**
 * The one place that acts when a job ends, by the job's purpose (never a component): exactly once per
 * job, recorded in the ledger as reactedAt. At start it catches up on jobs that ended while the studio
 * was closed or before a crash; a handler that fails is logged and tried again at the next start.
 * Every handler is registered with on() before start(), so the catch-up runs them all: on() after
 * start() throws (a late handler would miss the jobs the catch-up already marked as reacted).
 */
export class JobReactor {
  private readonly handlers = new Map<PurposeType, ReactionHandler[]>();
  private readonly running = new Map<string, Promise<void>>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: { engine: ReactorEngine; log?: Logger }) {}

  on(type: PurposeType, handler: ReactionHandler): void {
    if (this.unsubscribe)
      throw new Error(
        `A reaction to "${type}" jobs was registered after the reactor started; register every reaction before start()`,
      );
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.deps.engine.subscribeRecords((job) => this.consider(job));
    // The jobs that ended while no host ran, or before a crash (the ledger's partial index finds them).
    for (const job of this.deps.engine.records(undefined, { unreacted: true })) this.consider(job);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Resolves once every reaction under way has finished (tests, and quitting cleanly). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private consider(job: JobRecord): void {
    if (job.reactedAt !== null || !ENDED.has(job.phase) || this.running.has(job.id)) return;
    const reaction = this.react(job).finally(() => this.running.delete(job.id));
    this.running.set(job.id, reaction);
  }

  /** Never rejects: a failure is logged and the job stays unreacted until the next start. */
  private async react(job: JobRecord): Promise<void> {
    try {
      let later = false;
      for (const handler of this.handlers.get(job.purpose.type) ?? [])
        later = (await handler(job)) === 'later' || later;
      if (!later) await this.deps.engine.markReacted(job.id);
    } catch (error) {
      this.deps.log?.warn('acting on a finished job failed; it is tried again at the next start', {
        job: job.id,
        purpose: job.purpose.type,
        error: String(error),
      });
    }
  }
}
