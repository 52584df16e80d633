import type { CostEstimate, JobKind, JobRecord, JobView } from '../../common/bridge/jobs';
import type { SpendingPolicy } from '../../common/jobs/cost-model';
import type { Random } from '../client/backoff';
import type { Clock } from '../client/clock';
import type { ServiceClient } from '../client/service-client';
import type { Logger } from '../host/types';
import type { LedgerStorage } from './ledger';
import type { SchedulerOptions, Timers } from './scheduler';
import type { PollingStrategy } from './polling-strategy';
import type { JobCallbacks } from './job-callbacks';
import type { SharedAccount } from './account-creates';
import type { Budget } from './budget';

// What the job engine is given and the names it exports beside itself.

export const RESULT_LIFETIME_MS = 7 * 24 * 3600_000;
/** How far back a submit looks for the same request sent before (asked before sending it twice). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

export interface EngineConnection {
  id: string;
  name: string;
  webhookUrl: string | null;
}

export interface EngineConnections {
  /** The connection new jobs go to. */
  active(): Promise<EngineConnection>;
  /** A client for an existing job's connection; throws when the connection no longer exists. */
  client(connectionId: string): Promise<ServiceClient>;
}

export interface JobEngineDeps {
  storage: LedgerStorage;
  connections: EngineConnections;
  clock: Clock;
  random?: Random;
  timers?: Timers;
  log?: Logger;
  onChange?(job: JobView): void;
  onRemove?(id: string): void;
  notify?(title: string, body: string, outcome: 'completed' | 'failed'): void;
  /** Tells the user something went wrong that is not a job's end (a record that could not be written). */
  warn?(title: string, body: string): void;
  setProgress?(fraction: number | null): void;
  newId?: () => string;
  /** The same request again within this window asks first. Default 10 minutes. */
  duplicateWindowMs?: number;
  /** Polling stops (the job is "stalled") this long after creation. Default 24 hours. */
  deadlineMs?: number;
  /** A published price for a job on a connection (the model list; the built-in sandbox's list); else the kind's estimate. */
  estimator?(kind: JobKind, body: Record<string, unknown>, connectionId: string): Promise<CostEstimate | null>;
  scheduler?: Omit<SchedulerOptions, 'clock' | 'timers' | 'random' | 'onDeadline' | 'wakeHint'>;
  /** When to ask about a job beyond the scheduler's backoff. Default: JobTiming, which learns job lengths. */
  polling?: PollingStrategy;
  /** What the user chose about money (the no-question limit, daily limits per connection). Default: always ask, no limit. */
  spending?(): SpendingPolicy;
  /** The connection's credit balance now (quota/info); null where the service does not answer it. */
  balance?(connectionId: string): Promise<number | null>;
  /** Callback addresses for each create (a worker's --callback-url); none: every job is polled, as always. */
  callbacks?: JobCallbacks;
  /** The creates on their way on the whole account, shared with other processes that send on it (workers); none: this one alone. */
  account?: SharedAccount;
  /** The budget rows made here are held on (a worker's Redis); none: this process's. */
  budget?: Budget;
  /** The budget a queue's runs hold their rows on, shared by every studio sending to it (its Redis). */
  queueBudget?(queue: string, run: string): Promise<Budget>;
  /** A connection's account as named on a shared budget (the same in every process, no secret); null: none. */
  accountName?(connectionId: string): Promise<string | null>;
}

/** What the worker that made a job charged for it at its answer: carried to one that adopts the job. */
export type SentCharge = Pick<JobRecord, 'chargedCredits' | 'chargeSource'>;

export class JobNotFoundError extends Error {
  constructor(id: string) {
    super(`No job with id "${id}"`);
    this.name = 'JobNotFoundError';
  }
}

/**
 * Thrown by `submit` when its `stillGoes` said no at the last moment before the create left (its run
 * paused or cancelled meanwhile): nothing was sent, and its record is gone from the ledger.
 */
export class CreateHeldBack extends Error {
  constructor() {
    super('held back before the create was sent');
    this.name = 'CreateHeldBack';
  }
}

/** How a submit may be stopped: `signal` aborts it even on its way; `stillGoes` only holds it back before it leaves. */
export interface SubmitOptions {
  signal?: AbortSignal;
  stillGoes?: () => boolean;
  /**
   * A row's create whose row holds its whole price (the spending gate's row hold, or on a worker its
   * studio's hold on the queue): its money is not checked again, only counted on its way.
   */
  rowHeld?: boolean;
}
