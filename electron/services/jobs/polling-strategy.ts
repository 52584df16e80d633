import type { JobRecord } from '../../common/bridge/jobs';

/** What a strategy may read of a job: who sent it, what was asked, and when it left. */
export type TimedJob = Pick<JobRecord, 'id' | 'kind' | 'connectionId' | 'createdAt' | 'request'> &
  Partial<Pick<JobRecord, 'sentAt'>>;
/** A job that left polling, with what bounds how long it took. */
export type EndedJob = TimedJob & Pick<JobRecord, 'finishedAt' | 'activeSeenAt'>;

/**
 * When a poll should happen next: sleep until `at`, then poll every `stepMs` (undefined: the usual
 * backoff), each step `growth` times the one before while the job still runs (undefined: even steps).
 */
export interface WakeHint {
  at: number;
  stepMs?: number;
  growth?: number;
}

/**
 * Decides when the engine asks about a job, on top of the scheduler's backoff. The engine tells it
 * when a job starts and stops being followed; both answers name other jobs whose hint may have moved
 * (the scheduler then looks at them again).
 */
export interface PollingStrategy {
  follow(job: TimedJob): string[];
  finished(job: EndedJob, learn: boolean): string[];
  /**
   * Undefined: nothing known, the scheduler's own backoff decides. `turnsScarce`: the account's rate holds
   * its requests back now (RequestLimiter.scarce), so a poll that finds its job unfinished costs a create.
   */
  hint(job: TimedJob, now: number, turnsScarce?: boolean): WakeHint | undefined;
}

/** Fixed steps with backoff: the scheduler's policies alone, nothing learnt (tests, and the bench's baseline). */
export class PlainPolling implements PollingStrategy {
  follow(): string[] {
    return [];
  }
  finished(): string[] {
    return [];
  }
  hint(): undefined {
    return undefined;
  }
}
