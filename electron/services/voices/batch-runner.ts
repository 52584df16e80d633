import { existsSync } from 'node:fs';
import PQueue from 'p-queue';
import { Code } from '../../common/api/error-codes';
import { BATCH_ROW_STATES_ENDED, type BatchRowEdit, type BatchView } from '../../common/bridge/batches';
import type { JobSubmission, JobView, SubmitResult } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import { RunBalanceWatch, type BalanceReader, type RunBalanceOptions } from '../jobs/run-balance';
import type { BatchRecord, BatchStore } from './batch-store';
import { rowEdited, rowsRemoved, type RowCheck } from './batch-edits';
import { batchEndedSummary, batchView, expiringUnsaved, revisionOf, rowInFlight, rowsToSend } from './batch-view';

/** The part of the job engine a batch uses. */
export interface BatchEngine {
  list(): JobView[];
  subscribe(listener: (job: JobView) => void): () => void;
  submit(submission: JobSubmission): Promise<SubmitResult>;
  balanceNow?: BalanceReader;
}

export interface BatchRunnerDeps {
  engine: BatchEngine;
  store: BatchStore;
  log?: Logger;
  onChange?: (view: BatchView) => void;
  /** Announces a batch that has ended, once (its rows are not announced one by one). */
  notify?: (title: string, body: string, outcome: 'completed' | 'failed') => void;
  /** The first pause after the service rate-limits a batch (doubled while it keeps doing so). */
  backoffMs?: number;
  /** The clock, timers and period of the batch's balance readings (tests replace them). */
  balanceReadings?: RunBalanceOptions;
}

/**
 * Sends a batch's rows as TTS jobs through the job engine, a few at a time, and follows them to their
 * end. A row is sent only while it has no job in the ledger (or the user asked to send a failed one
 * again), so a restart, a second run or a crash mid-send never creates a row twice. When the service
 * rate-limits the account, the batch halves how many it sends at once and waits, instead of retrying
 * every row at once.
 */
export class BatchRunner {
  private readonly records = new Map<string, BatchRecord>();
  private readonly queues = new Map<string, PQueue>();
  private readonly runs = new Map<string, Promise<BatchView>>();
  private readonly stateChanged = new Set<() => void>();
  private stopped = false;
  /** Rows already named as expiring unsaved (batch:row:job), so each is named once per run. */
  private readonly warned = new Set<string>();

  /** The balance when a batch starts sending, every few minutes while it sends, and when it pauses or ends. */
  private readonly balances: RunBalanceWatch | null;

  constructor(private readonly deps: BatchRunnerDeps) {
    const read = deps.engine.balanceNow?.bind(deps.engine);
    const save = async (id: string, balance: BatchRecord['balance']) => {
      const record = this.records.get(id);
      if (record) await this.save({ ...record, balance });
    };
    this.balances = read ? new RunBalanceWatch({ ...deps.balanceReadings, read, save }) : null;
    // A batch's rows change with their jobs whether or not it is sending: after a pause the rows already
    // out still finish, and the page's counts follow them.
    deps.engine.subscribe((job) => {
      if (job.purpose.type !== 'batch-row') return;
      const record = this.records.get(job.purpose.batchId);
      if (record) this.emit(record);
    });
  }

  async create(
    record: Omit<BatchRecord, 'version' | 'state' | 'retry' | 'createdAt'> & { createdAt?: number },
  ): Promise<BatchRecord> {
    const full: BatchRecord = {
      version: 1,
      state: 'running',
      retry: [],
      createdAt: record.createdAt ?? Date.now(),
      ...record,
    };
    await this.deps.store.put(full);
    this.records.set(full.id, full);
    return full;
  }

  async get(id: string): Promise<BatchRecord | null> {
    const known = this.records.get(id);
    if (known) return known;
    const stored = await this.deps.store.get(id);
    if (stored) this.records.set(id, stored);
    return stored;
  }

  /** The batch with each row's state, read from the ledger. */
  view(record: BatchRecord): BatchView {
    return batchView(record, this.deps.engine.list());
  }

  /**
   * Sends what is left to send and waits until every sent row has ended. Resolves with the batch when it
   * finished, or as soon as it is paused or cancelled (jobs already sent go on at the service).
   */
  run(id: string): Promise<BatchView> {
    const running = this.runs.get(id);
    if (running) return running;
    const run = this.runOnce(id).finally(() => this.runs.delete(id));
    this.runs.set(id, run);
    return run;
  }

  /** Stops sending rows; those sent go on. */
  async pause(id: string): Promise<BatchView> {
    return this.setState(id, 'paused');
  }

  async resume(id: string): Promise<BatchView> {
    const view = await this.setState(id, 'running');
    void this.run(id);
    return view;
  }

  /** Rows not sent yet are never sent; those sent go on (they are paid for). */
  async cancel(id: string): Promise<BatchView> {
    return this.setState(id, 'cancelled');
  }

  /** Sends the failed rows again: each a new job, paid like the first (its caller asked first). */
  async retryFailed(id: string): Promise<BatchView> {
    const record = await this.require(id);
    const failed = this.view(record)
      .rows.filter((r) => r.state === 'failed')
      .map((r) => r.row);
    await this.save({ ...record, retry: [...new Set([...record.retry, ...failed])], state: 'running' });
    void this.run(id);
    return this.view((await this.get(id)) as BatchRecord);
  }

  /**
   * What an edited spreadsheet would send, before anything is saved (so a script can be asked first):
   * the rows that had ended and whose script, voice or rate changed, and the rows new to the batch.
   */
  async revision(
    id: string,
    rows: BatchRecord['rows'],
    refused: Pick<BatchRecord, 'invalid'>,
  ): Promise<{ changed: number[]; added: number[] }> {
    const record = await this.require(id);
    return revisionOf(record, this.view(record), rows, refused);
  }

  /**
   * The same batch from an edited spreadsheet: a row whose script, voice and rate are unchanged keeps
   * its job and result; a changed row that had ended is sent again, and new rows are sent. Answers the
   * rows that will be sent again.
   */
  async revise(
    id: string,
    rows: BatchRecord['rows'],
    refused: Pick<BatchRecord, 'invalid' | 'reasons'>,
  ): Promise<number[]> {
    const record = await this.require(id);
    const { changed } = await this.revision(id, rows, refused);
    const state = record.state === 'cancelled' ? 'cancelled' : 'running';
    await this.save({ ...record, rows, ...refused, retry: [...new Set([...record.retry, ...changed])], state });
    return changed;
  }

  /**
   * Makes one row again (the user heard it and wants another take, or it failed): a new job for that row
   * only. Its earlier result stays in the ledger, and in the folder until the new one is saved over it.
   */
  async redoRow(id: string, row: number): Promise<BatchView> {
    const record = await this.require(id);
    const state = this.view(record).rows.find((r) => r.row === row)?.state;
    if (record.state === 'cancelled')
      throw new Error('The batch was cancelled: start a new one to make its rows again.');
    if (state !== 'completed' && state !== 'failed')
      throw new Error(`Row ${row + 1} can be made again once it has ended (it is ${state ?? 'not in the batch'}).`);
    await this.save({ ...record, retry: [...new Set([...record.retry, row])], state: 'running' });
    void this.run(id);
    return this.view(await this.require(id));
  }

  /** Changes one row (see rowEdited): the batch runs again when the change leaves a row to send. */
  async editRow(id: string, edit: BatchRowEdit, remake: boolean, check: RowCheck): Promise<BatchView> {
    const record = await this.require(id);
    const changed = rowEdited(record, this.view(record), edit, remake, check);
    await this.save(changed);
    if (changed.state === 'running') void this.run(id);
    return this.view(await this.require(id));
  }

  /** Deletes rows not sent yet (see rowsRemoved). */
  async removeRows(id: string, rows: readonly number[]): Promise<BatchView> {
    const record = await this.require(id);
    await this.save(rowsRemoved(record, this.view(record), rows));
    return this.view(await this.require(id));
  }

  /** Remembers where a Save put each row's result (see BatchRecord.saved). */
  async markSaved(id: string, files: ReadonlyMap<number, { path: string; link: string }>): Promise<void> {
    const record = await this.require(id);
    await this.save({
      ...record,
      saved: { ...record.saved, ...Object.fromEntries([...files].map(([row, file]) => [String(row), file])) },
    });
  }

  /**
   * Names, once per row per run, each batch with done rows whose results expire within 24 hours and that
   * no Save of the batch holds (its file saved from this very link, and still there). The archive leaves
   * batch rows to their batch, so this is the warning for them, and it says where to save them.
   */
  async warnExpiring(now = Date.now()): Promise<string[]> {
    const named: string[] = [];
    for (const record of await this.list()) {
      const rows = expiringUnsaved(record, this.view(record), now, (path) => existsSync(path)).filter(
        (row) => !this.warned.has(`${record.id}:${row.row}:${row.jobId}`),
      );
      if (rows.length === 0) continue;
      for (const row of rows) this.warned.add(`${record.id}:${row.row}:${row.jobId}`);
      named.push(record.id);
      this.deps.notify?.(
        `Batch "${record.label}": ${rows.length} row${rows.length === 1 ? '' : 's'} expire${rows.length === 1 ? 's' : ''} within 24 hours unsaved`,
        `Open the batch in Voices and choose Save files to keep ${rows.length === 1 ? 'it' : 'them'} (rows ${rows
          .slice(0, 5)
          .map((r) => r.row + 1)
          .join(', ')}${rows.length > 5 ? ', …' : ''}).`,
        'failed',
      );
    }
    return named;
  }

  /**
   * Sends nothing more and waits for the creates already on their way (quitting): a create cut off
   * half way would leave its row "outcome unknown". The batches stay running and go on at the next start.
   */
  async stopSending(): Promise<void> {
    this.stopped = true;
    this.balances?.stop();
    // Rows waiting for their jobs to end let go of their places now.
    for (const notify of [...this.stateChanged]) notify();
    const queues = [...this.queues.values()];
    for (const queue of queues) queue.clear();
    await Promise.all(queues.map((queue) => queue.onIdle()));
  }

  /** Every batch, newest first. */
  async list(): Promise<BatchRecord[]> {
    for (const record of await this.deps.store.list())
      if (!this.records.has(record.id)) this.records.set(record.id, record);
    return [...this.records.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Goes on with every batch that was running when the studio stopped. */
  async resumeAll(): Promise<void> {
    for (const record of await this.deps.store.list()) {
      this.records.set(record.id, this.records.get(record.id) ?? record);
      if (record.state === 'running') void this.run(record.id);
    }
  }

  private async runOnce(id: string): Promise<BatchView> {
    const record = await this.require(id);
    if (record.state !== 'running' || this.stopped) return this.view(record);
    await this.balances?.started(id, record.balance);
    const queue = new PQueue({ concurrency: record.concurrency });
    this.queues.set(id, queue);
    const backoff = { ms: this.deps.backoffMs ?? 2_000 };
    // Rows still at the service from before a pause or a restart hold their places first.
    for (const row of this.view(record).rows)
      if (rowInFlight(row)) void queue.add(() => this.untilRowEnds(id, row.row));
    for (const row of rowsToSend(record, this.deps.engine.list()))
      void queue.add(() => this.send(id, row, queue, backoff));
    await queue.onIdle();
    this.queues.delete(id);
    if (this.stopped) return this.view(await this.require(id));
    await this.until(id, (view) => view.state !== 'running' || !view.rows.some(rowInFlight));
    const now = await this.require(id);
    const finished = now.state === 'running' && rowsToSend(now, this.deps.engine.list()).length === 0;
    if (finished) await this.save({ ...now, state: 'finished' });
    await this.balances?.stopped(id, finished);
    if (finished) this.announce(this.view(await this.require(id)));
    return this.view(await this.require(id));
  }

  private async send(id: string, row: number, queue: PQueue, backoff: { ms: number }): Promise<void> {
    const record = await this.require(id);
    if (this.stopped || record.state !== 'running' || !rowsToSend(record, this.deps.engine.list()).includes(row))
      return;
    const input = record.rows.find((r) => r.row === row) as BatchRecord['rows'][number];
    let result: SubmitResult;
    try {
      result = await this.deps.engine.submit({
        kind: 'tts',
        body: { input_text: input.text, voice_id: input.voiceId, rate: input.rate },
        purpose: { type: 'batch-row', batchId: id, row },
        // Two rows may ask for the same speech on purpose; each is its own voiceover.
        confirmDuplicate: true,
        // The user confirmed the batch's total when starting it (batches.create asks for it).
        confirmation: { by: 'batch', batchId: id },
      });
    } catch (error) {
      // Not even written to the ledger (a full disk): the row stays waiting, and the batch pauses.
      this.deps.log?.warn('a batch row could not be sent; the batch is paused', {
        batch: id,
        row,
        error: String(error),
      });
      await this.setState(id, 'paused');
      return;
    }
    const after = await this.require(id);
    if (after.retry.includes(row)) await this.save({ ...after, retry: after.retry.filter((r) => r !== row) });
    this.emit(await this.require(id));
    if (result.status === 'submitted' && result.job.phase === 'failed' && result.job.error?.code === Code.TooFrequent) {
      // The service still refuses after the client's own retries: fewer at once, a pause, then this row again.
      queue.concurrency = Math.max(1, Math.floor(queue.concurrency / 2));
      queue.pause();
      this.deps.log?.info('the service is rate-limiting the batch; sending fewer at once', {
        batch: id,
        concurrency: queue.concurrency,
        waitMs: backoff.ms,
      });
      setTimeout(() => queue.start(), backoff.ms).unref?.();
      backoff.ms = Math.min(backoff.ms * 2, 60_000);
      const latest = await this.require(id);
      await this.save({ ...latest, retry: [...new Set([...latest.retry, row])] });
      void queue.add(() => this.send(id, row, queue, backoff));
      return;
    }
    if (result.status === 'submitted') await this.untilRowEnds(id, row);
  }

  /**
   * A sent row keeps its place in the queue until its job has ended, so no more than the batch's
   * concurrency are at the service at once and a pause holds back every row not yet sent. Before, a
   * place was free again as soon as the create was answered: all 55 rows were out within 22 s, and
   * "Paused" held back nothing.
   */
  private untilRowEnds(id: string, row: number): Promise<void> {
    return this.until(id, (view) => {
      if (this.stopped || view.state !== 'running') return true;
      const state = view.rows.find((r) => r.row === row)?.state;
      return state === undefined || BATCH_ROW_STATES_ENDED.has(state);
    });
  }

  private async setState(id: string, state: BatchRecord['state']): Promise<BatchView> {
    const record = await this.require(id);
    if (record.state === state) return this.view(record);
    if (record.state === 'finished' && state !== 'running') return this.view(record);
    await this.save({ ...record, state });
    if (state !== 'running') this.queues.get(id)?.clear();
    return this.view((await this.get(id)) as BatchRecord);
  }

  private async save(record: BatchRecord): Promise<void> {
    this.records.set(record.id, record);
    await this.deps.store.put(record);
    this.emit(record);
    for (const notify of [...this.stateChanged]) notify();
  }

  private announce(view: BatchView): void {
    const { title, body, outcome } = batchEndedSummary(view);
    this.deps.notify?.(title, body, outcome);
  }

  private emit(record: BatchRecord): void {
    this.deps.onChange?.(this.view(record));
  }

  private async require(id: string): Promise<BatchRecord> {
    const record = await this.get(id);
    if (!record) throw new Error(`No batch "${id}"`);
    return record;
  }

  /** Resolves once `done` holds for the batch, re-checked whenever one of its jobs or its state changes. */
  private until(id: string, done: (view: BatchView) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        const record = this.records.get(id);
        if (!record || done(this.view(record))) {
          stopJobs();
          this.stateChanged.delete(check);
          resolve();
        }
      };
      const stopJobs = this.deps.engine.subscribe((job) => {
        if (job.purpose.type === 'batch-row' && job.purpose.batchId === id) check();
      });
      this.stateChanged.add(check);
      check();
    });
  }
}
