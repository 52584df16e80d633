import type { JobPhase, JobRecord } from '../../common/bridge/jobs';
import { RecordStatus } from '../../common/api';
import type { ServiceClient } from '../client/service-client';
import { pollJob, type RemoteSnapshot } from './kinds';
import { PollScheduler, type PollOutcome } from './scheduler';
import { isActive, reportedFailure } from './job-view';
import { JobTiming } from './job-timing';
import type { PollingStrategy } from './polling-strategy';
import type { JobEngineDeps } from './engine-types';
import { errorText, phaseOf, pollFailure } from './engine-helpers';
import { CallbackPolling, callbackSnapshot } from './callback-follow';
import type { CallbackOutcome } from './job-callbacks';
import type { WebhookEvent } from '../../common/api';

type FollowerDeps = Pick<
  JobEngineDeps,
  'clock' | 'timers' | 'random' | 'scheduler' | 'polling' | 'connections' | 'callbacks'
>;

/** With callbacks, a job sleeps until its callback is overdue rather than waking each minute to poll. */
const CALLBACK_MAX_SLEEP_MS = 30 * 60_000;

/** What following needs of the engine: its records, the one way to change one, and the news of an end. */
export interface FollowedJobs {
  get(id: string): JobRecord | undefined;
  /** Changes a record in memory at once; the promise settles when it is on disk (`persist`: default true). */
  update(id: string, patch: Partial<JobRecord>, persist?: boolean): Promise<void>;
  ended(record: JobRecord | undefined): void;
}

/**
 * Follows jobs the service accepted until they end: when to ask (the scheduler, with the polling
 * strategy's hints), what each answer changes, and when to stop asking (the deadline, a connection
 * gone). The engine owns the records and the creates; this owns everything after the remote id.
 */
export class JobFollower {
  private readonly scheduler: PollScheduler;
  private readonly timing: PollingStrategy;
  /** The client each connection's last poll went through: it says whether that account's turns are scarce. */
  private readonly polledWith = new Map<string, ServiceClient>();

  constructor(
    private readonly deps: FollowerDeps,
    private readonly jobs: FollowedJobs,
  ) {
    const callbacks = deps.callbacks;
    const timing = deps.polling ?? new JobTiming();
    this.timing = callbacks
      ? new CallbackPolling(timing, (id) => callbacks.has(id), undefined, callbacks.graceMs)
      : timing;
    callbacks?.bind({ accept: (id, event) => this.fromCallback(id, event) });
    this.scheduler = new PollScheduler((id, signal) => this.poll(id, signal), {
      ...(callbacks && { maxSleepMs: CALLBACK_MAX_SLEEP_MS }),
      ...deps.scheduler,
      clock: deps.clock,
      timers: deps.timers,
      random: deps.random,
      onDeadline: (id) =>
        this.stall(id, 'The studio stopped checking this job after its deadline. Use "Check again" to look once more.'),
      wakeHint: (id) => {
        const record = this.jobs.get(id);
        const scarce = record && this.polledWith.get(record.connectionId)?.turnsScarce();
        return record && this.timing.hint(record, this.deps.clock.now(), scarce);
      },
    });
  }

  /** A job loaded from the ledger that ended while it was polled: its length teaches the timing. */
  learnFromPast(record: JobRecord): void {
    if (record.finishedAt !== null && record.polls > 0) this.timing.finished(record, true);
  }

  /** Starts polling an active job in its phase, until its deadline; the first poll after `firstDelayMs`. */
  track(record: JobRecord, firstDelayMs?: number): void {
    for (const other of this.timing.follow(record)) this.scheduler.rehint(other);
    this.scheduler.track(
      record.id,
      record.phase === 'queued' ? 'queued' : 'processing',
      record.deadlineAt,
      firstDelayMs,
    );
  }

  /** Asked by the user: an active job is polled now, a stalled one followed again; one never answered cannot be. */
  refresh(record: JobRecord): void {
    const id = record.id;
    if (record.phase === 'stalled' && record.remoteId) {
      const phase: JobPhase = record.remoteStatus === RecordStatus.Processing ? 'processing' : 'queued';
      const now = this.deps.clock.now();
      void this.jobs.update(id, { phase, error: null, deadlineAt: Math.max(record.deadlineAt, now + 3600_000) });
      // The updated record: its phase and its later deadline are what polling follows now.
      const updated = this.jobs.get(id);
      if (updated) this.track(updated, 0);
    } else if (isActive(record.phase) && record.remoteId) {
      // A job this engine loaded without following (a command line reading the folder) is followed from now.
      if (this.has(id)) this.pollSoon(id);
      else this.track(record, 0);
    } else if (record.phase === 'outcome-unknown') {
      throw new Error(
        'The service has no way to look this job up: the studio never received its id. Check the service dashboard or your credit history; if it is not there, send the request again.',
      );
    }
  }

  has(id: string): boolean {
    return this.scheduler.has(id);
  }

  pollSoon(id: string): void {
    this.scheduler.pollSoon(id);
  }

  /** Stops polling at once; in-flight polls are aborted. */
  stop(): void {
    this.scheduler.stop();
  }

  /** Stops following a job whose end was not seen (removed, stalled): nothing is learnt from it. */
  drop(record: JobRecord): void {
    this.scheduler.untrack(record.id);
    this.unfollow(record, false);
  }

  /**
   * Applies a service answer: whether anything the user sees changed, and when it is on disk. The
   * create's answer is always written; later ones only when the job ended.
   */
  applySnapshot(
    id: string,
    snapshot: RemoteSnapshot,
    fromCreate: boolean,
    /** Whether the answer cost a request (a poll); a callback's did not. */
    polled = !fromCreate,
  ): { changed: boolean; saved: Promise<void> } {
    const unchanged = { changed: false, saved: Promise.resolve() };
    const record = this.jobs.get(id);
    // A poll answered after a callback ended the job (or the other way round) changes nothing.
    if (!record || (!fromCreate && !isActive(record.phase))) return unchanged;
    const phase = phaseOf(snapshot.status);
    const changed = fromCreate || snapshot.status !== record.remoteStatus || snapshot.resultUrl !== record.resultUrl;
    const final = phase === 'completed' || phase === 'failed';
    // In memory only: written with the job's next durable change, it bounds how long the job took.
    if (!final) record.activeSeenAt = this.deps.clock.now();
    if (!changed) {
      if (polled) record.polls += 1;
      return unchanged;
    }
    // The service's own figure wins over the balance's change. A job it failed is refunded (its records
    // say 0 where they carry a figure): the price, estimate or fall kept at its create is not a charge.
    const refunded = phase === 'failed' && snapshot.chargedCredits === null;
    // Queued -> processing is not written down: after a crash the next poll learns it again.
    const saved = this.jobs.update(
      id,
      {
        phase,
        remoteStatus: snapshot.status,
        resultUrl: snapshot.resultUrl,
        chargedCredits: refunded ? 0 : (snapshot.chargedCredits ?? record.chargedCredits),
        chargeSource: snapshot.chargedCredits !== null || refunded ? 'service' : (record.chargeSource ?? null),
        answer: snapshot.answer,
        polls: record.polls + (polled ? 1 : 0),
        finishedAt: final ? this.deps.clock.now() : null,
        error: phase === 'failed' ? reportedFailure(snapshot.failReason) : null,
      },
      final || fromCreate,
    );
    if (final) this.unfollow(this.jobs.get(id), !fromCreate);
    if (final) this.jobs.ended(this.jobs.get(id));
    return { changed: true, saved };
  }

  /**
   * A callback the receiver verified, taken as a poll's answer. It changes an active job only, never
   * back to an earlier status; a failure is polled at once for its reason and refund, which the
   * callback does not carry.
   */
  fromCallback(id: string, event: WebhookEvent): CallbackOutcome {
    const record = this.jobs.get(id);
    if (!record) return 'unchanged';
    if (!record.remoteId) return isActive(record.phase) ? 'not-yet' : 'unchanged';
    if (event._id !== record.remoteId) return 'mismatch';
    if (!isActive(record.phase) || (record.remoteStatus ?? 0) >= event.status) return 'unchanged';
    if (event.status === RecordStatus.Failed) {
      this.pollSoon(id);
      return 'applied';
    }
    // Sent as the job ended: its length is known to within the callback's way here, as a close poll would.
    if (event.status === RecordStatus.Completed) record.activeSeenAt = this.deps.clock.now();
    this.applySnapshot(id, callbackSnapshot(record, event), false, false);
    if (!isActive(this.jobs.get(id)?.phase ?? 'completed')) this.scheduler.untrack(id);
    return 'applied';
  }

  private async poll(id: string, signal: AbortSignal): Promise<PollOutcome> {
    const record = this.jobs.get(id);
    if (!record || !record.remoteId || !isActive(record.phase)) return { type: 'done' };
    let client: ServiceClient;
    try {
      client = await this.deps.connections.client(record.connectionId);
      this.polledWith.set(record.connectionId, client);
    } catch (error) {
      this.stall(
        id,
        `The connection this job was sent through is not available (${errorText(error)}). Restore it, then use "Check again".`,
      );
      return { type: 'done' };
    }
    try {
      const snapshot = await pollJob(
        client,
        record.kind,
        { remoteId: record.remoteId, request: record.request as Record<string, unknown> },
        signal,
      );
      const { changed } = this.applySnapshot(id, snapshot, false);
      const after = this.jobs.get(id);
      if (!after || !isActive(after.phase)) return { type: 'done' };
      return { type: 'progress', state: after.phase === 'queued' ? 'queued' : 'processing', changed };
    } catch (error) {
      const failure = pollFailure(error);
      if (failure.type === 'again') return failure.outcome;
      if (failure.type === 'stall') this.stall(id, failure.explanation);
      else {
        this.jobs.update(id, { phase: 'failed', finishedAt: this.deps.clock.now(), error: failure.error });
        this.unfollow(record, false);
        this.jobs.ended(this.jobs.get(id));
      }
      return { type: 'done' };
    }
  }

  /** The job left polling: its cohort's scouts and predictions may change. */
  private unfollow(record: JobRecord | undefined, learn: boolean): void {
    if (!record) return;
    this.deps.callbacks?.ended(record.id);
    for (const other of this.timing.finished(record, learn)) this.scheduler.rehint(other);
  }

  private stall(id: string, explanation: string): void {
    const record = this.jobs.get(id);
    if (!record) return;
    this.drop(record);
    this.jobs.update(id, {
      phase: 'stalled',
      error: { code: null, endpoint: null, message: explanation, explanation },
    });
  }
}
