import type { JobView, PurposeType } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';

/** What a purpose's handler is given: the job as it ended. It may run again after a crash: be idempotent. */
export type ReactionHandler = (job: JobView) => Promise<void>;

export interface ReactorEngine {
  list(): JobView[];
  subscribe(listener: (job: JobView) => void): () => void;
  markReacted(id: string): Promise<void>;
}

/** A job's end that calls for a reaction: it completed, or it ended without a result for good. */
const ENDED = new Set<JobView['phase']>(['completed', 'failed', 'outcome-unknown']);

/**
 * The one place that acts when a job ends, by the job's purpose (never a component): exactly once per
 * job, recorded in the ledger as reactedAt. At start it catches up on jobs that ended while the studio
 * was closed or before a crash; a handler that fails is logged and tried again at the next start.
 * Other services register their purposes' handlers with on().
 */
export class JobReactor {
  private readonly handlers = new Map<PurposeType, ReactionHandler[]>();
  private readonly running = new Set<string>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: { engine: ReactorEngine; log?: Logger }) {}

  on(type: PurposeType, handler: ReactionHandler): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.deps.engine.subscribe((job) => void this.consider(job));
    for (const job of this.deps.engine.list()) void this.consider(job);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Resolves once every reaction under way has finished (tests, and quitting cleanly). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private async consider(job: JobView): Promise<void> {
    if (job.reactedAt !== null || !ENDED.has(job.phase) || this.running.has(job.id)) return;
    this.running.add(job.id);
    try {
      for (const handler of this.handlers.get(job.purpose.type) ?? []) await handler(job);
      await this.deps.engine.markReacted(job.id);
    } catch (error) {
      this.deps.log?.warn('acting on a finished job failed; it is tried again at the next start', { job: job.id, purpose: job.purpose.type, error: String(error) });
    } finally {
      this.running.delete(job.id);
    }
  }
}
