import { rmSync, statSync } from 'node:fs';
import PQueue from 'p-queue';
import { type WebhookEnvelope, type WebhookEvent, type WebhookType, RecordStatus } from '../../common/api';
import type { Accounts } from '../state/accounts';
import type { Files } from '../state/files';
import type { StateStore } from '../state/store';
import type { JobKind, JobRecord } from '../state/types';
import { sleep, type WebhookSender } from './webhooks';
import type { CallbackFaultDelivery } from './callback-faults';

export interface ProcessResult {
  /** Name of the result file, already written into the files folder. */
  file: string;
  extraFiles?: Record<string, string>;
  facts?: Record<string, number | string>;
}

export interface ProcessContext {
  signal: AbortSignal;
  /** A fresh scratch folder for this job. */
  workDir: string;
}

export type Processor = (job: JobRecord, ctx: ProcessContext) => Promise<ProcessResult>;

export interface EngineDeps {
  store: StateStore;
  files: Files;
  accounts: Accounts;
  webhooks: WebhookSender;
  processors: Record<JobKind, Processor>;
  /** The service's webhook `type` name of a job. */
  webhookType: (job: JobRecord) => WebhookType;
  /** Encrypts and signs a callback event as the service does (the sandbox's client id and secret). */
  sealWebhook: (event: WebhookEvent) => WebhookEnvelope;
  /** Callbacks lost, duplicated, late, out of order or forged on purpose (the counted callback faults). */
  callbackFaults?: CallbackFaultDelivery;
  jobSeconds: number;
  /** Whether the next job to process fails on purpose (the counted `--fail-rate`). */
  failJob: () => boolean;
  /** Settles once a job may end while a test's control holds them all at processing; null: not held. */
  jobsMayEnd?: () => Promise<void> | null;
  now: () => number;
  log: (line: string) => void;
  makeWorkDir: (jobId: string) => Promise<string>;
  /** Longest a job's processing may take before it fails (its ffmpeg is stopped). Default 10 min. */
  jobTimeoutMs?: number;
  /** Largest result (plus extra files) a job may leave; a larger one fails and is deleted. Default 512 MB. */
  maxResultBytes?: number;
  /** Jobs processed at once, so one slow job does not stall the rest. Default 3. */
  workers?: number;
  removeWorkDir: (dir: string) => Promise<void>;
}

/**
 * The sandbox's side of a job (named apart from the studio's JobEngine, the client that creates and follows
 * jobs): moves records 1 queueing -> 2 processing -> 3 completed or 4 failed. A job spends at least
 * `jobSeconds` in total (a quarter of it queueing) and as long as its real render takes, within a
 * time and size limit. A small pool of renders runs at once. Records still at 1 or 2 when the sandbox starts are picked up again.
 */
export class SandboxJobRunner {
  private readonly queue: PQueue;
  private readonly abort = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly d: EngineDeps) {
    this.queue = new PQueue({ concurrency: d.workers ?? 3 });
  }

  resumeUnfinished(): number {
    const open = Object.values(this.d.store.state.jobs).filter(
      (j) => j.status === RecordStatus.Queueing || j.status === RecordStatus.Processing,
    );
    for (const job of open) {
      job.status = 1;
      this.d.store.changed(job);
      this.submit(job);
    }
    return open.length;
  }

  submit(job: JobRecord): void {
    const total = this.d.jobSeconds * 1000;
    const started = this.d.now();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.abort.signal.aborted) return;
      // Only a job that has started is waited for on close: p-queue never settles the promise of a task
      // that clear() dropped, so tracking the queued ones would hang every close with a backlog.
      void this.queue
        .add(() => this.tracked(this.start(job, started + total)))
        .catch((error: unknown) => this.failUnexpectedly(job, 'processing', error));
    }, total * 0.25);
    this.timers.add(timer);
  }

  /**
   * A job says "processing" only once a render slot takes it: until then it is queueing, as the service's
   * own jobs are while its workers are busy. A client can tell a busy service from a slow account by it.
   */
  private async start(job: JobRecord, notBefore: number): Promise<void> {
    if (this.abort.signal.aborted) return;
    try {
      this.update(job, { status: RecordStatus.Processing });
      this.notify(job);
    } catch (error) {
      this.failUnexpectedly(job, 'starting', error);
      return;
    }
    await this.process(job, notBefore);
  }

  private async tracked(run: Promise<void>): Promise<void> {
    this.running.add(run);
    try {
      await run;
    } finally {
      this.running.delete(run);
    }
  }

  private async process(job: JobRecord, notBefore: number): Promise<void> {
    let dir = '';
    try {
      if (this.d.failJob()) throw new Error('Injected fault (--fail-rate): processing failed on purpose');
      dir = await this.d.makeWorkDir(job._id);
      const result = await this.bounded(job, dir);
      await this.waitUntil(notBefore);
      await this.mayEnd();
      if (this.abort.signal.aborted) return;
      this.d.files.register(result.file);
      for (const f of Object.values(result.extraFiles ?? {})) this.d.files.register(f);
      this.update(job, {
        status: RecordStatus.Completed,
        resultFile: result.file,
        extraFiles: result.extraFiles ?? {},
        facts: { ...job.facts, ...result.facts },
      });
    } catch (error) {
      if (this.abort.signal.aborted) return;
      await this.waitUntil(notBefore);
      const reason = error instanceof Error ? error.message : String(error);
      this.d.log(`job ${job._id} (${job.kind}) failed: ${reason}`);
      this.d.accounts.refund(this.d.store.state.accounts[String(job.uid)] ?? this.d.accounts.account, job.cost);
      this.update(job, { status: RecordStatus.Failed, reason });
    } finally {
      if (dir) await this.d.removeWorkDir(dir).catch(() => undefined);
    }
    this.notify(job);
  }

  /** Runs the job's processor within its time limit and checks the size of what it left. */
  private async bounded(job: JobRecord, workDir: string): Promise<ProcessResult> {
    const limitMs = this.d.jobTimeoutMs ?? 600_000;
    const timeout = new AbortController();
    const signal = AbortSignal.any([this.abort.signal, timeout.signal]);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timeout.abort();
        reject(new Error(`processing took longer than ${Math.round(limitMs / 1000)} s, the sandbox's limit per job`));
      }, limitMs);
    });
    try {
      const result = await Promise.race([this.d.processors[job.kind](job, { signal, workDir }), expired]);
      const names = [result.file, ...Object.values(result.extraFiles ?? {})];
      const size = names.reduce(
        (sum, name) => sum + (statSync(this.d.files.resultPath(name), { throwIfNoEntry: false })?.size ?? 0),
        0,
      );
      const max = this.d.maxResultBytes ?? 512 * 1024 * 1024;
      if (size > max) {
        for (const name of names) rmSync(this.d.files.resultPath(name), { force: true });
        throw new Error(
          `the result is ${Math.round(size / 1024 / 1024)} MB, more than the sandbox's ${Math.round(max / 1024 / 1024)} MB per job`,
        );
      }
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Held while a test holds jobs, never past the sandbox's close. */
  private async mayEnd(): Promise<void> {
    const held = this.d.jobsMayEnd?.();
    if (!held || this.abort.signal.aborted) return;
    let closed = (): void => undefined;
    const closing = new Promise<void>((resolve) => (closed = resolve));
    this.abort.signal.addEventListener('abort', closed, { once: true });
    try {
      await Promise.race([held, closing]);
    } finally {
      this.abort.signal.removeEventListener('abort', closed);
    }
  }

  private async waitUntil(t: number): Promise<void> {
    const wait = t - this.d.now();
    if (wait > 0 && !this.abort.signal.aborted) await sleep(wait);
  }

  private update(job: JobRecord, change: Partial<JobRecord>): void {
    Object.assign(job, change, { updatedAt: this.d.now() });
    this.d.store.changed(job);
  }

  /**
   * The sandbox's own fault (not the job's input) surfaced outside a job's processing: logged, and the
   * job ends failed with the reason, so nothing waits on it forever and the process goes on serving.
   */
  private failUnexpectedly(job: JobRecord, step: string, error: unknown): void {
    const reason = `the sandbox failed while ${step} this job: ${error instanceof Error ? error.message : String(error)}`;
    this.d.log(`job ${job._id} (${job.kind}): ${reason}`);
    if (job.status >= RecordStatus.Completed) return;
    try {
      this.update(job, { status: RecordStatus.Failed, reason });
    } catch (again) {
      this.d.log(
        `job ${job._id}: its failure could not be recorded either: ${again instanceof Error ? again.message : String(again)}`,
      );
    }
  }

  /**
   * Status 2, 3 and 4 are reported to the job's webhook, encrypted and signed like the service's. A
   * callback that cannot be built is a failed delivery on the job's record, not a crash; it is not
   * retried, as another try would fail the same way.
   */
  private notify(job: JobRecord): void {
    if (!job.webhook || job.status < 2) return;
    const status = job.status as 2 | 3 | 4;
    let envelope: WebhookEnvelope;
    let event: WebhookEvent;
    try {
      event = {
        _id: job._id,
        status,
        type: this.d.webhookType(job),
        url: status === RecordStatus.Completed ? this.d.files.resultUrl(job.resultFile) : '',
      };
      envelope = this.d.sealWebhook(event);
    } catch (error) {
      const lastError = `the callback could not be built: ${error instanceof Error ? error.message : String(error)}`;
      this.d.log(`webhook for ${job._id}: ${lastError}`);
      job.webhookLog = { attempts: 0, delivered: false, lastError };
      this.d.store.changed(job);
      return;
    }
    const webhook = job.webhook;
    const send = (body: WebhookEnvelope) =>
      this.d.webhooks.send(webhook, job._id, body, (delivery) => {
        job.webhookLog = delivery;
        this.d.store.changed(job);
      });
    if (this.d.callbackFaults) this.d.callbackFaults.deliver(event, envelope, send);
    else send(envelope);
  }

  /** Stops timers and renders; unfinished jobs stay at 1/2 on disk and resume at the next start. */
  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.abort.abort();
    this.queue.clear();
    await Promise.allSettled([...this.running]);
  }
}
