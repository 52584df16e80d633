import { retriedWithTheFailed } from '../../common/campaign/row-review';
import type { BatchRow, BatchRowEdit, BatchSummary } from '../../common/bridge/batches';
import type { JobSubmission, JobView } from '../../common/bridge/jobs';
import type { ResultCopies } from '../downloads/result-copies';
import type { Logger } from '../host/types';
import type { RowEngine } from '../rows/engine/row-engine';
import type { RowBase, RowKind, RowStepContext, RowStepPrice } from '../rows/engine/row-kind';
import type { RunRowPages, RunStores, RunSummary } from '../rows/engine/run-store';
import type { RunSumsReader } from '../jobs/run-sums';
import { rowEdited, rowsRemoved, type RowCheck } from './batch-edits';
import { batchRuns, settledRows, type BatchRecord, type BatchRowRecord } from './batch-record';
import {
  batchEndedSummary,
  batchSummaryOf,
  batchView,
  DAY,
  expiringSoon,
  revisionOf,
  rowJobs,
  summariseBatch,
  type WholeBatch,
} from './batch-view';
import { rowLabel } from '../../common/text/row-label';

export interface BatchRowsDeps {
  /** The one row engine of the host (campaigns run on it too). */
  rows: RowEngine;
  /** The folder's runs (its records database), where batches are kept with their rows. */
  runs: RunStores;
  /** The ledger's sums, where lists count a batch's rows and the expiry warning finds its batches (absent: read whole). */
  queries?: RunSumsReader;
  /** The job engine's changes: a batch's rows follow their jobs' phases on the page. */
  subscribe(listener: (job: JobView) => void): () => void;
  log?: Logger;
  onChange?: (view: WholeBatch) => void;
  /** Announces a batch that has ended, once (its rows are not announced one by one). */
  notify?: (title: string, body: string, outcome: 'completed' | 'failed') => void;
}

const KIND = 'batch';

/** What a batch's own fields tell the count of its rows' states. */
const batchRowsQuery = (run: Omit<BatchRecord, 'rows'>) => ({
  batchId: run.id,
  invalid: run.invalid,
  queued: Boolean(run.queue),
  cancelled: run.state === 'cancelled',
});

/** Its jobs' sums, with the window of its balance readings (as batchView's balance note reads them). */
const batchSumsQuery = ({ id, balance }: Omit<BatchRecord, 'rows'>) => ({
  runId: id,
  purposeType: 'batch-row',
  ...(balance
    ? { balance: { since: balance.startedAt, until: balance.endedAt === null ? balance.latestAt : null } }
    : {}),
});

/** One row's voiceover, marked as its own take so the reactor brings its end back and the ledger says which take it is. */
function speech(batchId: string, row: BatchRowRecord): JobSubmission {
  return {
    kind: 'tts',
    body: { input_text: row.text, voice_id: row.voiceId, rate: row.rate },
    purpose: { type: 'batch-row', batchId, row: row.row, ...(row.take > 0 ? { take: row.take } : {}) },
    // Two rows may ask for the same speech on purpose; each is its own voiceover.
    confirmDuplicate: true,
    // The user confirmed the batch's total when starting it (batches.create asks for it).
    confirmation: { by: 'batch', batchId },
  } as JobSubmission;
}

/** A batch row's one step on the row engine: its voiceover (a paid create and its wait). */
async function step({ run, row, jobs, paid, set, fail }: RowStepContext<BatchRowRecord, BatchRecord>): Promise<void> {
  if (row.state !== 'speech') return;
  const known = rowJobs(jobs(), run.id, false, new Map([[row.row, row.take]])).get(row.row) ?? null;
  // A job the engine gave up following ends the row (it is not sent again by itself).
  if (known?.phase === 'stalled') return fail(known.error?.explanation ?? 'the service stopped answering about it');
  const job = await paid(known, () => speech(run.id, row));
  if (job === 'waiting') return;
  if (job.phase === 'completed') return set((r) => ({ ...r, state: 'done', problems: [] }));
  return fail(job.error?.explanation ?? 'the voiceover failed');
}

/**
 * Batch voiceovers as the studio's domains and the command line use them: one run kind of the row
 * engine. A row is sent only while its take has no job in the ledger, so a restart, a second run or a
 * crash mid-send never creates a row twice.
 */
export class BatchRows {
  /** Rows already named as expiring unsaved (batch:row:job), so each is named once per run. */
  private readonly warned = new Set<string>();

  constructor(private readonly deps: BatchRowsDeps) {
    const kind: RowKind<BatchRowRecord, BatchRecord> = {
      name: KIND,
      runs: batchRuns(deps.runs),
      rowOf: (job) => (job.purpose.type === 'batch-row' ? { runId: job.purpose.batchId, row: job.purpose.row } : null),
      firstStep: () => 'speech',
      steps: (run, row) =>
        row.state === 'pending' || row.state === 'speech' ? [speech(run.id, row) as RowStepPrice] : [],
      step,
      cancelled: (row) => ({ ...row, state: 'cancelled' }),
      redo: (row) => ({ ...row, state: 'pending', take: row.take + 1, problems: [] }),
      // A worker reports the row's end; its job joins this studio's ledger, where the batch reads its result.
      queued: {
        local: () => false,
        received: (row, reported) => ({ ...row, state: reported.state, problems: reported.problems }),
      },
      onChange: (record) => this.emit(record),
      onFinished: (record) => {
        // A worker's one-row batch is part of a studio's queued batch: that one says it ended.
        if (record.partOf) return;
        const { title, body, outcome } = batchEndedSummary(this.view(record));
        deps.notify?.(title, body, outcome);
      },
    };
    deps.rows.register(kind);
    // A batch's rows change with their jobs whether or not it is sending (after a pause the rows out still finish).
    deps.subscribe((job) => {
      if (job.purpose.type !== 'batch-row') return;
      void this.get(job.purpose.batchId).then((record) => record && this.emit(record));
      if (job.phase === 'stalled') void deps.rows.jobEnded(job);
    });
  }

  async create(
    input: Omit<BatchRecord, 'version' | 'state' | 'retry' | 'createdAt' | 'rows'> & {
      createdAt?: number;
      rows: (Omit<BatchRowRecord, 'state' | 'take' | 'problems'> & Partial<BatchRowRecord>)[];
    },
  ): Promise<BatchRecord> {
    const record = settledRows(
      { rows: [] },
      { version: 1, state: 'running', retry: [], createdAt: input.createdAt ?? Date.now(), ...input },
    );
    await this.deps.rows.create(KIND, record);
    return record;
  }

  /** Pages of the batches' rows read where they are kept (null: cut from a batch read whole). */
  async pages(): Promise<RunRowPages | null> {
    return (await this.deps.runs.pages?.()) ?? null;
  }

  get(id: string): Promise<BatchRecord | null> {
    return this.deps.rows.get(KIND, id) as Promise<BatchRecord | null>;
  }

  /** The batch with each row's state, read from its record and the ledger. */
  view(record: BatchRecord): WholeBatch {
    return batchView(record, this.deps.rows.jobs(record.id));
  }

  /** Goes on with the batch; resolves when it finished, or as soon as it is paused or cancelled (rows out go on). */
  async run(id: string): Promise<WholeBatch> {
    return this.view((await this.deps.rows.run(KIND, id, { untilRowsEnd: false })) as BatchRecord);
  }

  async pause(id: string): Promise<WholeBatch> {
    return this.view((await this.deps.rows.pause(KIND, id)) as BatchRecord);
  }

  async resume(id: string): Promise<WholeBatch> {
    return this.view((await this.deps.rows.resume(KIND, id)) as BatchRecord);
  }

  /** Rows not sent yet are never sent; those sent go on (they are paid for). */
  async cancel(id: string): Promise<WholeBatch> {
    return this.view((await this.deps.rows.cancel(KIND, id)) as BatchRecord);
  }

  /** Sends the failed rows again: each its next take, paid like the first (its caller asked first). */
  async retryFailed(id: string): Promise<WholeBatch> {
    const record = await this.require(id);
    // A row waiting for review (its worker stopped mid-send) is left for its user: it may be paid for.
    const failed = this.view(record)
      .rows.filter((r) => retriedWithTheFailed({ state: r.state, problems: r.problem ? [r.problem] : [] }))
      .map((r) => r.row);
    await this.save(settledRows(record, { ...record, retry: failed, state: 'running', pause: null }));
    void this.deps.rows.run(KIND, id);
    return this.view(await this.require(id));
  }

  /**
   * A worker's row goes on only while its queued batch does (asked before each paid request), and
   * `progress` hears of each change of it (its take's progress, kept at the queue).
   */
  guard(id: string, running: () => Promise<boolean>, progress?: (row: RowBase) => void): void {
    this.deps.rows.guard(KIND, id, running, progress && ((rows) => rows[0] && progress(rows[0])));
  }

  /** Lets go of an ended batch's record (a worker's one-row batch, once reported). */
  forget(id: string): Promise<void> {
    return this.deps.rows.forget(KIND, id);
  }

  /** Sets or removes the cap ("stop after N credits"); a batch paused at its cap goes on when resumed. */
  async setCap(id: string, maxCredits: number | null): Promise<WholeBatch> {
    return this.view((await this.deps.rows.update(KIND, id, (r) => ({ ...r, maxCredits }))) as BatchRecord);
  }

  /** What an edited spreadsheet would send, before anything is saved (see revisionOf). */
  async revision(
    id: string,
    rows: readonly BatchRow[],
    refused: Pick<BatchRecord, 'invalid'>,
  ): Promise<{ changed: number[]; added: number[] }> {
    const record = await this.require(id);
    return revisionOf(record, this.view(record), rows, refused);
  }

  /** The same batch from an edited spreadsheet: unchanged rows keep their jobs; changed ended rows and new rows are sent. */
  async revise(id: string, rows: BatchRow[], refused: Pick<BatchRecord, 'invalid' | 'reasons'>): Promise<number[]> {
    const record = await this.require(id);
    const { changed } = await this.revision(id, rows, refused);
    const state = record.state === 'cancelled' ? 'cancelled' : 'running';
    await this.save(settledRows(record, { ...record, rows, ...refused, retry: changed, state }));
    return changed;
  }

  /** Makes one ended row again: a new take for that row only (its earlier result stays in the ledger). */
  async redoRow(id: string, row: number): Promise<WholeBatch> {
    const record = await this.require(id);
    const found = this.view(record).rows.find((r) => r.row === row);
    const state = found?.state;
    if (record.state === 'cancelled')
      throw new Error('The batch was cancelled: start a new one to make its rows again.');
    if (state !== 'completed' && state !== 'failed')
      throw new Error(
        `${rowLabel(found ?? { row }, { capital: true })} can be made again once it has ended (it is ${state ?? 'not in the batch'}).`,
      );
    await this.deps.rows.redo(KIND, id, row, () => undefined);
    void this.deps.rows.run(KIND, id);
    return this.view(await this.require(id));
  }

  /** Changes one row (see rowEdited): the batch runs again when the change leaves a row to send. */
  async editRow(id: string, edit: BatchRowEdit, remake: boolean, check: RowCheck): Promise<WholeBatch> {
    const record = await this.require(id);
    const changed = settledRows(record, rowEdited(record, this.view(record), edit, remake, check));
    await this.save(changed);
    if (changed.state === 'running') void this.deps.rows.run(KIND, id);
    return this.view(await this.require(id));
  }

  /** Deletes rows not sent yet (see rowsRemoved). */
  async removeRows(id: string, rows: readonly number[]): Promise<WholeBatch> {
    const record = await this.require(id);
    await this.save(settledRows(record, rowsRemoved(record, this.view(record), rows)));
    return this.view(await this.require(id));
  }

  /** Remembers where a Save put each row's result (see BatchRecord.saved). */
  async markSaved(id: string, files: ReadonlyMap<number, { path: string; link: string }>): Promise<void> {
    const saved = Object.fromEntries([...files].map(([row, file]) => [String(row), file]));
    await this.deps.rows.update(KIND, id, (r) => ({ ...r, saved: { ...(r as BatchRecord).saved, ...saved } }));
  }

  /**
   * Names, once per row per run, each batch with done rows whose results expire within 24 hours and that
   * have no copy on disk as saved. "Saved" is the one record of copies checked against the disk, as the
   * archive and the Library read it: a Save's file deleted or rewritten since leaves its row unsaved.
   */
  async warnExpiring(copies: Pick<ResultCopies, 'checked'>, now = Date.now()): Promise<string[]> {
    const named: string[] = [];
    // Only the batches with a result expiring in the day are read (every batch, with no ledger to ask).
    const expiring = this.deps.queries && new Set(this.deps.queries.runsExpiring('batch-row', now, now + DAY));
    for (const { run, held } of await this.deps.rows.summaries(KIND)) {
      if (!held && expiring && !expiring.has(run.id)) continue;
      const record = (held ?? (await this.get(run.id))) as BatchRecord | null;
      if (!record) continue;
      const soon = expiringSoon(this.view(record), now).filter(
        (row) => !this.warned.has(`${record.id}:${row.row}:${row.jobId}`),
      );
      if (soon.length === 0) continue;
      const saved = new Set(
        (await copies.checked(soon.map((row) => row.jobId as string)))
          .filter((copy) => copy.state === 'saved')
          .map((copy) => copy.jobId),
      );
      const rows = soon.filter((row) => !saved.has(row.jobId as string));
      if (rows.length === 0) continue;
      for (const row of rows) this.warned.add(`${record.id}:${row.row}:${row.jobId}`);
      named.push(record.id);
      const one = rows.length === 1;
      this.deps.notify?.(
        `Batch "${record.label}": ${rows.length} row${one ? '' : 's'} expire${one ? 's' : ''} within 24 hours unsaved`,
        `Open the batch in Voices and choose Save files to keep ${one ? 'it' : 'them'} (${rows
          .slice(0, 5)
          .map((r) => rowLabel(r))
          .join(', ')}${rows.length > 5 ? ', …' : ''}).`,
        'failed',
      );
    }
    return named;
  }

  /**
   * Sends nothing more and waits for the creates already on their way (quitting): a create cut off half
   * way would leave its row "outcome unknown". The batches stay running and go on at the next start.
   */
  async stopSending(): Promise<void> {
    this.deps.rows.stop();
    await this.deps.rows.idle();
  }

  list(): Promise<BatchRecord[]> {
    return this.deps.rows.list(KIND) as Promise<BatchRecord[]>;
  }

  /**
   * Every batch as lists show it, newest first. One the engine holds is summed from it as it is now;
   * the others' rows are counted and their jobs summed where they are kept, none read, unless the
   * ledger is not kept with them or not given (then the batch is read whole) or it keeps rows to make again
   * from an older studio (their takes are worked out as it is read).
   */
  async summaries(): Promise<BatchSummary[]> {
    const { queries } = this.deps;
    const all = (await this.deps.rows.summaries(KIND)) as RunSummary<BatchRecord>[];
    const found: BatchSummary[] = [];
    for (const { run, total, held } of all) {
      const counts = held || run.retry.length > 0 ? null : (queries?.batchRows(batchRowsQuery(run)) ?? null);
      const whole = counts ? null : (held ?? (await this.get(run.id)));
      if (whole) found.push(summariseBatch(this.view(whole)));
      else if (counts && queries) found.push(batchSummaryOf(run, counts, total, queries.runSums(batchSumsQuery(run))));
    }
    return found;
  }

  resumeAll(): Promise<void> {
    return this.deps.rows.resumeAll(KIND);
  }

  private async save(record: BatchRecord): Promise<void> {
    await this.deps.rows.replace(KIND, record);
  }

  private async require(id: string): Promise<BatchRecord> {
    const record = await this.get(id);
    if (!record) throw new Error(`No batch "${id}"`);
    return record;
  }

  private emit(record: BatchRecord): void {
    this.deps.onChange?.(this.view(record));
  }
}
