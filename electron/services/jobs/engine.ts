import { randomUUID } from 'node:crypto';
import type { CostEstimate, JobRecord, JobSubmission, JobView, SubmitResult } from '../../common/bridge/jobs';
import { chargeAtAnswer, pricedOnceCompleted, recordedEstimate } from './paid-gate';
import { SpendingGate, type CreatePass, type MeasuredCreate } from './spending-gate';
import { LedgerWriter } from './ledger-writer';
import { describeIssues } from '../../common/api';
import { endpointTypes } from '../client/endpoint-types';
import { ServiceError } from '../client/errors';
import type { ServiceClient } from '../client/service-client';
import { createJob, kindEntry, withWebhook, type RemoteSnapshot } from './kinds';
import { realTimers, type Timers } from './scheduler';
import { jobViewOf, toJobView, isActive, isFinal, describeUnknownOutcome, countActive } from './job-view';
import { JobEvents } from './job-events';
import { JobFollower } from './job-follower';
import { ForgottenJobs } from './forgotten-jobs';
import { EngineMoney } from './engine-money';
import { LedgerReads, workingSet } from './ledger-reads';
import { HeldJobs } from './held-jobs';
import { unpricedJobs } from './unpriced-jobs';
import type { JobScope } from './job-scope';
import { dayStart } from '../../common/jobs/cost-model';
import { RESULT_LIFETIME_MS, JobNotFoundError, CreateHeldBack, DUPLICATE_WINDOW_MS } from './engine-types';
import type { EngineConnection, JobEngineDeps, SentCharge, SubmitOptions } from './engine-types';
import {
  adoptedRecord,
  jobDraft,
  receivedKeys,
  receivedRecord,
  duplicateMessage,
  errorText,
  hashRequest,
  newJobRecord,
  recentDuplicate,
  unsentCreatePatch,
} from './engine-helpers';

export { RESULT_LIFETIME_MS, JobNotFoundError, CreateHeldBack, hashRequest, type JobEngineDeps };
export type { EngineConnection, EngineConnections } from './engine-types';

/**
 * Submits paid jobs and follows them to the end. Every create is preceded by a durable ledger record, so
 * a crash never loses a job and never silently sends one twice: a record left in "submitting" after a
 * restart becomes "outcome unknown" and is never re-sent. Once the service accepted a create, a record
 * that cannot be written does not end the job: it stays followed in memory while the write is retried.
 */
export class JobEngine extends EngineMoney {
  /** The jobs held in memory: those a start needs (ledger-reads.ts workingSet) and those changed since. */
  private readonly jobs = new HeldJobs();
  /** Lets go of ended jobs from memory (a worker's, once their row's report was delivered); the ledger keeps them. */
  readonly forgotten = new ForgottenJobs(
    this.jobs,
    (id) => this.follower.has(id),
    (record) => this.reads.drop(record),
  );
  /** Every other job, read from the ledger by scope when asked for. */
  private readonly reads: LedgerReads;
  /** Polling after the create: when to ask, what each answer changes, stalls at the deadline. */
  private readonly follower: JobFollower;
  private readonly events: JobEvents;
  private readonly newId: () => string;
  private readonly timers: Timers;
  private readonly writer: LedgerWriter;
  readonly spending: SpendingGate;
  private started = false;
  private readOnly = false;

  constructor(protected readonly deps: JobEngineDeps) {
    super();
    this.newId = deps.newId ?? (() => randomUUID());
    this.reads = new LedgerReads(deps.storage, this.jobs, this.forgotten);
    this.events = new JobEvents(deps, () => this.jobs.active());
    this.timers = deps.timers ?? realTimers;
    this.writer = new LedgerWriter({
      storage: deps.storage,
      timers: this.timers,
      log: deps.log,
      warn: deps.warn,
      latest: (id) => this.jobs.get(id),
    });
    // The clock, prices, policy, balance and the account's shared record of creates, as the engine was given them.
    this.spending = new SpendingGate({
      ...deps,
      activeConnection: () => deps.connections.active(),
      records: () => this.forgotten.beside(this.jobs.values()),
    });
    this.follower = new JobFollower(deps, {
      get: (id) => this.jobs.get(id),
      update: (id, patch, persist) => this.update(id, patch, persist),
      ended: (record) => this.events.ended(record),
    });
    this.events.subscribeRecords(unpricedJobs((id) => void this.update(id, {})));
  }

  /**
   * Reads what it needs of the ledger and resumes polling; `only` limits polling to some jobs. The jobs
   * it does not hold count in the day's total and the price guide from their columns. `readOnly` (the
   * CLI's list, show and wait) never writes the ledger: another process may own these records, and a
   * create it is sending right now must not be marked as lost.
   */
  start(options: { only?: readonly string[]; poll?: boolean; readOnly?: boolean } = {}): void {
    if (this.started) return;
    this.started = true;
    this.readOnly = options.readOnly === true;
    const now = this.deps.clock.now();
    const recentMs = this.deps.duplicateWindowMs ?? DUPLICATE_WINDOW_MS;
    for (const record of workingSet(this.deps.storage, now, recentMs)) {
      this.jobs.set(record.id, record);
      this.follower.learnFromPast(record);
      if (record.phase === 'submitting' && !this.readOnly) {
        // The process ended between writing the ledger and learning the create's outcome.
        this.update(record.id, { phase: 'outcome-unknown', error: describeUnknownOutcome(null) });
      }
    }
    // Today's and yesterday's jobs (the day's limit) and each kind's latest charges (the guide).
    const from = dayStart(now) - 2 * 86_400_000;
    this.forgotten.takeIn(
      this.deps.storage.charges(from).filter((row) => !this.jobs.has(row.id)),
      from,
    );
    if (options.poll === false) return;
    const random = this.deps.random ?? Math.random;
    for (const record of this.jobs.values()) {
      if (!isActive(record.phase) || !record.remoteId) continue;
      if (options.only && !options.only.includes(record.id)) continue;
      // Spread the first polls so a restart with many jobs does not burst.
      this.follower.track(record, random() * 2_000);
    }
    this.events.reportProgress(now);
  }

  /** Stops polling at once; in-flight polls are aborted. */
  stop(): void {
    this.follower.stop();
    this.writer.stop();
  }

  /** Settles when every ledger write made so far is on disk (before a process exits). */
  flush(): Promise<void> {
    return this.deps.storage.flush();
  }

  /** Starts polling one job that `start({ poll: false })` loaded but left alone. */
  follow(id: string): void {
    const record = this.reads.take(id);
    if (!record) throw new JobNotFoundError(id);
    if (isActive(record.phase) && record.remoteId && !this.follower.has(id)) this.follower.track(record, 0);
  }

  /** Each change as the page sees it. */
  subscribe(listener: (job: JobView) => void): () => void {
    return this.events.subscribe(listener);
  }

  /** Each change as the ledger keeps it, for services that act on the record (the reactor). */
  subscribeRecords(listener: (job: JobRecord) => void): () => void {
    return this.events.subscribeRecords(listener);
  }

  /**
   * The records themselves, newest first (services: the archive, downloads, the reactor), those in the
   * scope that `match`. Say the scope (a run, a phase…): without one every job in the ledger is read.
   */
  records(match?: (record: JobRecord) => boolean, scope: JobScope = {}): JobRecord[] {
    return this.reads.find(scope, match);
  }

  /** A run stopped: its jobs read from the ledger for its rows are let go of (LedgerReads.forgetRun). */
  releaseRun(runId: string): void {
    this.reads.forgetRun(runId);
  }

  /** Whether the run's jobs are held as read from the ledger (a stopped run's must not be). */
  holdsRun(runId: string): boolean {
    return this.reads.holdsRun(runId);
  }

  /** The records held in memory that `match` (a worker lets its delivered rows' jobs go; tests look). */
  held(match: (record: JobRecord) => boolean): JobRecord[] {
    return [...this.jobs.values()].filter(match);
  }

  record(id: string): JobRecord {
    const record = this.reads.get(id);
    if (!record) throw new JobNotFoundError(id);
    return record;
  }

  /** `match`: only those records are viewed (a worker finds one row's jobs among thousands every row). */
  list(match?: (record: JobRecord) => boolean, scope: JobScope = {}): JobView[] {
    const now = this.deps.clock.now();
    return this.records(match, scope).map((r) => jobViewOf(r, now));
  }

  get(id: string): JobView {
    return jobViewOf(this.record(id), this.deps.clock.now());
  }

  get activeCount(): number {
    return countActive(this.jobs.values());
  }

  async submit(submission: JobSubmission, stops: SubmitOptions = {}): Promise<SubmitResult> {
    const spec = kindEntry(submission.kind);
    const checked = endpointTypes[spec.createEndpoint].request.safeParse(submission.body);
    if (!checked.success) {
      throw new ServiceError({ kind: 'invalid', endpoint: spec.createEndpoint, detail: describeIssues(checked.error) });
    }
    const connection = await this.deps.connections.active();
    const client = await this.deps.connections.client(connection.id);
    const body = withWebhook(submission.kind, submission.body as Record<string, unknown>, connection.webhookUrl);
    const requestHash = hashRequest(submission.kind, connection.id, submission.body);
    // Money is a property of this path, not of a screen: nothing paid leaves unconfirmed or past the day's
    // limit. From here the create is counted at its price until its answer is on its record.
    const pass = await this.spending.admit(submission, connection, stops.rowHeld);
    try {
      return await this.send(submission, { connection, client, body, requestHash, pass }, stops);
    } finally {
      pass.ticket.release();
    }
  }

  /** A create let through: written to the ledger, sent, and its answer written down. */
  private async send(
    submission: JobSubmission,
    sending: {
      connection: EngineConnection;
      client: ServiceClient;
      body: Record<string, unknown>;
      requestHash: string;
      pass: CreatePass;
    },
    { signal, stillGoes }: SubmitOptions,
  ): Promise<SubmitResult> {
    const { connection, client, body, requestHash, pass } = sending;
    const now = this.deps.clock.now();

    // From here to the ledger write nothing awaits, so two identical submits cannot both pass the check.
    if (!submission.confirmDuplicate) {
      const earlier = recentDuplicate(
        this.jobs.values(),
        requestHash,
        now,
        this.deps.duplicateWindowMs ?? DUPLICATE_WINDOW_MS,
      );
      if (earlier)
        return {
          status: 'duplicate',
          existing: toJobView(earlier, now),
          message: duplicateMessage(kindEntry(submission.kind).label, connection.name, earlier, now),
        };
    }

    const record = newJobRecord(this.draft(submission, body, recordedEstimate(pass.price), connection));
    record.confirmation = submission.confirmation;
    this.jobs.set(record.id, record);
    this.events.changed(record);
    try {
      await this.deps.storage.put(record);
    } catch (error) {
      // Without a durable record a crash could lose a paid job, so nothing is sent.
      this.jobs.delete(record.id);
      this.deps.onRemove?.(record.id);
      throw new Error(`The job could not be written to the ledger, so it was not sent: ${errorText(error)}`);
    }

    let created: MeasuredCreate<RemoteSnapshot>;
    let sentAt: number | null = null;
    let heldBack = false;
    const goes = stillGoes && (() => stillGoes() || ((heldBack = true), false));
    try {
      created = await this.spending.send(pass, connection.id, () =>
        createJob(client, record.kind, this.deps.callbacks?.attach(record, body) ?? body, {
          signal,
          stillGoes: goes,
          onSent: (at) => (sentAt = at),
        }),
      );
    } catch (error) {
      // Held back at the last moment (its run paused): nothing left, so nothing stays on record.
      if (heldBack && sentAt === null) {
        await this.remove(record.id);
        throw new CreateHeldBack();
      }
      this.update(record.id, unsentCreatePatch(error, this.deps.clock.now()));
      this.deps.log?.warn('job create did not succeed', {
        job: record.id,
        kind: record.kind,
        phase: this.jobs.get(record.id)?.phase,
        error: errorText(error),
      });
      return { status: 'submitted', job: this.get(record.id) };
    }

    // The service accepted (and may charge for) the job: from here on nothing may end it as unknown.
    const { result: snapshot, balanceBefore, balanceAfter, charged } = created;
    const createdAt = this.deps.clock.now();
    // One durable write for the id and the create's answer: the answer alone carries nothing a
    // restart could not learn again, the id is what makes the paid job findable.
    this.update(
      record.id,
      {
        remoteId: snapshot.remoteId,
        expiresAt: createdAt + RESULT_LIFETIME_MS,
        activeSeenAt: createdAt,
        sentAt,
        balanceBefore,
        balanceAfter,
        // The job's charge from here on: the service's figure, the balance's fall, the price or the estimate.
        ...chargeAtAnswer(snapshot.chargedCredits, charged, pass.price),
      },
      false,
    );
    const { saved } = this.follower.applySnapshot(record.id, snapshot, true);
    // Its record, answered now, counts it at its charge: it stops being counted as on its way.
    pass.ticket.release();
    const after = this.jobs.get(record.id);
    if (after && isActive(after.phase)) this.follower.track(after);
    // A failed write is retried by write() and told to the user there; the job is followed either way.
    await saved.catch(() => undefined);
    return { status: 'submitted', job: this.get(record.id) };
  }

  /** A job another worker of the run created (its id beside the create's shared intent): recorded as sent, and followed; without an id, of unknown outcome. */
  async adopt(submission: JobSubmission, remoteId: string | null, sent?: SentCharge): Promise<SubmitResult> {
    const connection = await this.deps.connections.active();
    const price = await this.spending.price(submission.kind, submission.body, connection.id);
    const draft = this.draft(submission, submission.body, recordedEstimate(price), connection);
    return { status: 'submitted', job: await this.takeIn(adoptedRecord(draft, remoteId, price, sent)) };
  }

  /** Jobs a worker made for a queued run of this studio, as it reported them: recorded here (once each). */
  async receive(views: readonly JobView[]): Promise<void> {
    const connection = await this.deps.connections.active();
    const known = receivedKeys(views, (scope) => this.records(undefined, scope));
    for (const view of views) {
      const submission = { kind: view.kind, body: view.request, purpose: view.purpose } as JobSubmission;
      const draft = this.draft(submission, submission.body, view.costEstimate, connection);
      if (known.firstTime(view, draft.requestHash)) await this.takeIn(receivedRecord(draft, view));
    }
  }

  private async takeIn(taken: JobRecord): Promise<JobView> {
    const record = pricedOnceCompleted(taken, () => this.spending.recent(taken));
    this.jobs.set(record.id, record);
    await this.deps.storage.put(record);
    this.events.changed(record);
    if (isActive(record.phase)) this.follower.track(record, 0);
    return this.get(record.id);
  }

  private draft(s: JobSubmission, request: Record<string, unknown>, cost: CostEstimate | null, c: EngineConnection) {
    return jobDraft(this.newId(), s, c, request, this.deps.clock.now(), this.deps.deadlineMs, cost);
  }

  /** Records that the reactor has acted on this job's end, so it never acts again (after a restart too). */
  async markReacted(id: string): Promise<void> {
    if (!this.reads.take(id)) return;
    await this.update(id, { reactedAt: this.deps.clock.now() });
  }

  /** Polls an active job now, or resumes a stalled one. */
  refresh(id: string): JobView {
    const record = this.reads.take(id);
    if (!record) throw new JobNotFoundError(id);
    this.follower.refresh(record);
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const record = this.reads.take(id);
    if (!record) throw new JobNotFoundError(id);
    this.follower.drop(record);
    await this.deps.storage.remove(id);
    this.jobs.delete(id);
    this.deps.onRemove?.(id);
    this.events.reportProgress();
  }

  /** Resolves with the job once it reaches a final phase (completed, failed, outcome unknown, stalled). */
  waitFor(id: string, signal?: AbortSignal): Promise<JobView> {
    const current = this.get(id);
    if (isFinal(current.phase)) return Promise.resolve(current);
    this.follower.pollSoon(id);
    return this.events.nextEnd(id, signal);
  }

  /** A change, in memory at once; settles once on disk (a failed write of a job the service knows is retried). */
  private update(id: string, patch: Partial<JobRecord>, persist = true): Promise<void> {
    const record = this.reads.take(id);
    if (!record) return Promise.resolve();
    const next = pricedOnceCompleted({ ...record, ...patch, updatedAt: this.deps.clock.now() }, () =>
      this.spending.recent(record),
    );
    this.jobs.set(id, next);
    this.events.changed(next);
    if (!persist || this.readOnly) return Promise.resolve();
    return this.writer.write(next);
  }
}
