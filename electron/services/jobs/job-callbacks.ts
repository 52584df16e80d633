import { createHash, randomBytes } from 'node:crypto';
import type { WebhookEvent } from '../../common/api';
import type { JobKind } from '../../common/bridge/jobs';
import { JOB_KIND_REGISTRY } from '../../common/jobs/kinds';

/** What a callback did to its job (the receiver answers the service by it). */
export type CallbackOutcome = 'applied' | 'unchanged' | 'not-yet' | 'mismatch';

/** Where accepted callbacks go: the job follower, which treats one like a poll's answer. */
export interface CallbackTarget {
  accept(jobId: string, event: WebhookEvent): CallbackOutcome;
}

interface Route {
  jobId: string;
  connectionId: string;
  /** When its job ended: a late callback is still recognised (and changes nothing) for a while. */
  endedAt: number | null;
}

export interface JobCallbacksOptions {
  /**
   * The address the service posts to, as it reaches the receiver (`https://host/path`); each job's token
   * is added to it. A function: the address for a job's connection, null where its jobs are polled (the
   * desktop app and web host take callbacks on the one connection whose receiver listens).
   */
  url: string | ((connectionId: string) => string | null);
  now?: () => number;
  newToken?: () => string;
  /** How long an ended job's token is still known (a late or out-of-order callback answered "unchanged"). Default 15 min. */
  keepEndedMs?: number;
  /**
   * How long past its kind's longest usual length (and half that again) a job's callback may take before
   * the job is polled: its way here through the service's queue, a proxy and this machine. Default 3 s.
   */
  graceMs?: number;
}

/** 32 random bytes, base64url: 43 characters no one can guess. */
export const newCallbackToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are kept by their hash: a memory dump or a debugger shows no address that would be accepted. */
const keyOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Callback addresses of the jobs this process sends: each create gets `<url>/<token>`, a token of its
 * own, in the kind's callback field (`webhookUrl`, `webhookurl` for character swap). The token lives in
 * memory only and is never written to the ledger (the ledger keeps the body without it): after a
 * restart the jobs are polled, as every job whose callback does not come is.
 */
export class JobCallbacks {
  private readonly routes = new Map<string, Route>();
  private readonly byJob = new Map<string, string>();
  /** Ended routes in the order they ended, so forgetting the old ones never looks at the rest. */
  private readonly endedInOrder = new Map<string, number>();
  private target: CallbackTarget | null = null;
  private readonly url: (connectionId: string) => string | null;
  private readonly now: () => number;
  private readonly newToken: () => string;
  private readonly keepEndedMs: number;
  readonly graceMs: number | undefined;

  constructor(options: JobCallbacksOptions) {
    this.graceMs = options.graceMs;
    const url = options.url;
    this.url = typeof url === 'string' ? () => url : url;
    this.now = options.now ?? Date.now;
    this.newToken = options.newToken ?? newCallbackToken;
    this.keepEndedMs = options.keepEndedMs ?? 15 * 60_000;
  }

  /** The follower, once it exists: callbacks before then are asked to come again. */
  bind(target: CallbackTarget): void {
    this.target = target;
  }

  /**
   * The body to send for a job: its callback field set to this job's address. A kind without a callback,
   * a connection without an address, or a body that already names its own callback address, is sent as
   * it is (and polled as before).
   */
  attach(
    job: { id: string; kind: JobKind; connectionId: string },
    body: Record<string, unknown>,
  ): Record<string, unknown> {
    const field = JOB_KIND_REGISTRY[job.kind].webhookField;
    const url = this.url(job.connectionId)?.replace(/\/+$/, '');
    if (!field || !url || body[field]) return body;
    this.sweep();
    const token = this.newToken();
    const key = keyOf(token);
    this.routes.set(key, { jobId: job.id, connectionId: job.connectionId, endedAt: null });
    this.byJob.set(job.id, key);
    return { ...body, [field]: `${url}/${token}` };
  }

  /** Whether the service was asked to call back for this job (then it is polled only once its callback is overdue). */
  has(jobId: string): boolean {
    return this.byJob.has(jobId);
  }

  lookup(token: string): { jobId: string; connectionId: string } | undefined {
    const route = this.routes.get(keyOf(token));
    return route && { jobId: route.jobId, connectionId: route.connectionId };
  }

  accept(jobId: string, event: WebhookEvent): CallbackOutcome {
    return this.target ? this.target.accept(jobId, event) : 'not-yet';
  }

  /** The job ended (or left the ledger): its token is known a while longer, then forgotten. */
  ended(jobId: string): void {
    const key = this.byJob.get(jobId);
    const route = key === undefined ? undefined : this.routes.get(key);
    if (!key || !route || route.endedAt !== null) return;
    route.endedAt = this.now();
    this.endedInOrder.set(key, route.endedAt);
  }

  private sweep(): void {
    const before = this.now() - this.keepEndedMs;
    for (const [key, endedAt] of this.endedInOrder) {
      if (endedAt > before) break;
      this.endedInOrder.delete(key);
      const route = this.routes.get(key);
      this.routes.delete(key);
      if (route) this.byJob.delete(route.jobId);
    }
  }
}
