// What a batch looks like read against the ledger: each row's state, which rows are still to send, and
// what an edited spreadsheet would send again. Pure functions of the batch's record and the engine's
// jobs, so the runner keeps only the sending and waiting.
import {
  BATCH_ROW_STATES_ENDED,
  batchRowProblem,
  type BatchRow,
  type BatchRowState,
  type BatchPace,
  type BatchRowView,
  type BatchSummary,
  type BatchView,
} from '../../common/bridge/batches';
import type { RunJobSums } from '../jobs/run-sums';
import type { JobView } from '../../common/bridge/jobs';
import { describeRunBalance, readingCut, runFigures } from '../../common/jobs/run-balance';
import { runAtService } from '../../common/jobs/run-at-service';
import { refusedForBalance, refusedTooFrequent } from '../rows/engine/row-kind';
import type { BatchRecord } from './batch-record';

const PHASE_TO_ROW: Record<JobView['phase'], BatchRowState> = {
  submitting: 'sending',
  queued: 'queued',
  processing: 'processing',
  completed: 'completed',
  failed: 'failed',
  'outcome-unknown': 'outcome-unknown',
  stalled: 'stalled',
};

/**
 * The newest job of each row of the batch: of each row's current take when `takes` are given, else of
 * any take (only completed ones when `completed`).
 */
export function rowJobs(
  jobs: readonly JobView[],
  batchId: string,
  completed = false,
  takes?: ReadonlyMap<number, number>,
): Map<number, JobView> {
  const byRow = new Map<number, JobView>();
  for (const job of jobs) {
    if (job.purpose.type !== 'batch-row' || job.purpose.batchId !== batchId || (completed && job.phase !== 'completed'))
      continue;
    if (takes && (job.purpose.take ?? 0) !== takes.get(job.purpose.row)) continue;
    const known = byRow.get(job.purpose.row);
    if (!known || job.createdAt >= known.createdAt) byRow.set(job.purpose.row, job);
  }
  return byRow;
}

/**
 * A batch's view with every row, as the host reads it to save, edit, count and page it. Only its
 * view (withoutRows) and pages of its rows (batchRowsPage) cross to the page and the command line.
 */
export type WholeBatch = BatchView & { rows: BatchRowView[] };

/**
 * Each row of the record as its view shows it, read against the ledger's jobs: every row of the batch
 * for its view, or the rows of one page (the record holding those alone, with their jobs).
 */
export function batchRowViews(record: BatchRecord, jobs: readonly JobView[]): BatchRowView[] {
  const latest = rowJobs(jobs, record.id, false, new Map(record.rows.map((r) => [r.row, r.take])));
  const takes = rowJobs(jobs, record.id, true);
  const invalid = new Set(record.invalid);
  return record.rows.map(({ state: own, take: _take, problems, ...row }): BatchRowView => {
    const job = latest.get(row.row);
    let state: BatchRowState;
    if (invalid.has(row.row) || own === 'invalid') state = 'invalid';
    // Ended without a job of its own (the studio could not send it): its reason is the row's.
    else if (!job && own === 'failed') state = 'failed';
    // On a queue, a row sent to it has no job here until its worker reports: it is queued, not waiting.
    else if (!job && own === 'speech' && record.queue) state = 'queued';
    else if (!job) state = record.state === 'cancelled' || own === 'cancelled' ? 'cancelled' : 'waiting';
    // A create the service refused before making anything (out of credits, too frequent) is sent again: the row waits.
    else if (own === 'speech' && (refusedForBalance(job) || refusedTooFrequent(job))) state = 'waiting';
    else state = PHASE_TO_ROW[job.phase];
    const problem =
      state === 'invalid'
        ? (batchRowProblem(row) ?? record.reasons?.[String(row.row)] ?? 'refused by the checks')
        : (job?.error?.explanation ?? problems[0] ?? null);
    // A row being made again keeps its last good take (to hear and to save) until the new one is good.
    const take = job?.phase === 'completed' ? job : takes.get(row.row);
    return {
      ...row,
      state,
      jobId: job?.id ?? null,
      resultUrl: take?.resultUrl ?? null,
      expiresAt: take?.expiresAt ?? null,
      problem,
      chargedCredits: take?.chargedCredits ?? null,
      endedAt: job?.finishedAt ?? null,
    };
  });
}

/** The batch with each row's state, read from the ledger's jobs. */
export function batchView(record: BatchRecord, jobs: readonly JobView[]): WholeBatch {
  const rows = batchRowViews(record, jobs);
  const counts = {} as Record<BatchRowState, number>;
  let done = 0;
  for (const { state } of rows) {
    counts[state] = (counts[state] ?? 0) + 1;
    if (BATCH_ROW_STATES_ENDED.has(state)) done += 1;
  }
  return {
    ...ownFields(record),
    counts,
    done,
    balanceNote: balanceNote(record, jobs),
    atService: runAtService(jobs.filter((j) => j.purpose.type === 'batch-row' && j.purpose.batchId === record.id)),
    total: rows.length,
    pace: batchPace(rows),
    withResults: rows.filter((row) => row.resultUrl !== null).length,
    rows,
  };
}

/** The pace's figures read off a batch's rows once, here, for a page that is not sent them. */
function batchPace(rows: readonly BatchRowView[]): BatchPace {
  const doneAt: number[] = [];
  const charges: number[] = [];
  let spent = 0;
  for (const row of rows) {
    spent += row.chargedCredits ?? 0;
    if (row.state !== 'completed') continue;
    if (row.endedAt !== null) doneAt.push(row.endedAt);
    if (row.chargedCredits !== null) charges.push(row.chargedCredits);
  }
  const rowCharge = charges.length ? charges.reduce((a, b) => a + b, 0) / charges.length : null;
  return { doneAt, rowCharge, spent };
}

/** The batch as it crosses to the page: everything but its rows. */
export function withoutRows(whole: WholeBatch): BatchView {
  const { rows: _rows, ...view } = whole;
  return view;
}

/** The batch as lists and progress events carry it. */
export function summariseBatch(whole: WholeBatch): BatchSummary {
  const { rows: _rows, pace: _pace, withResults: _withResults, ...summary } = whole;
  return summary;
}

/** What a batch's view and its summary show of its own fields, as they are. */
function ownFields(record: Omit<BatchRecord, 'rows'>) {
  return {
    id: record.id,
    label: record.label,
    createdAt: record.createdAt,
    state: record.state,
    concurrency: record.concurrency,
    template: record.template,
    pause: record.pause ?? null,
    maxCredits: record.maxCredits ?? null,
    queue: record.queue ?? null,
  };
}

/**
 * A batch as lists show it from its own fields, its rows counted by state where they are kept and its
 * jobs summed there (the same figures batchView reads off the rows and jobs held whole).
 */
export function batchSummaryOf(
  record: Omit<BatchRecord, 'rows'>,
  counts: Record<string, number>,
  total: number,
  sums: Pick<RunJobSums, 'atService' | 'figures'>,
): BatchSummary {
  let done = 0;
  for (const [state, rows] of Object.entries(counts))
    if (BATCH_ROW_STATES_ENDED.has(state as BatchRowState)) done += rows;
  return {
    ...ownFields(record),
    counts,
    done,
    balanceNote: record.balance && sums.figures ? describeRunBalance(record.balance, sums.figures) : null,
    atService: sums.atService,
    total,
  };
}

/** The batch's fall in balance beside the sum of its jobs' figures, since its first reading. */
function balanceNote(record: BatchRecord, jobs: readonly JobView[]): string | null {
  if (!record.balance) return null;
  const own = jobs.filter((j) => j.purpose.type === 'batch-row' && j.purpose.batchId === record.id);
  return describeRunBalance(record.balance, runFigures(own, record.balance.startedAt, readingCut(record.balance)));
}

/**
 * What an edited spreadsheet would send: the rows that had ended and whose script, voice or rate changed,
 * and the rows new to the batch (refused rows are never sent).
 */
export function revisionOf(
  record: BatchRecord,
  view: WholeBatch,
  rows: readonly BatchRow[],
  refused: Pick<BatchRecord, 'invalid'>,
): { changed: number[]; added: number[] } {
  const changed = rows
    .filter((row) => {
      const old = record.rows.find((r) => r.row === row.row);
      return old !== undefined && (old.text !== row.text || old.voiceId !== row.voiceId || old.rate !== row.rate);
    })
    .map((row) => row.row)
    .filter((row) => {
      const state = view.rows.find((r) => r.row === row)?.state;
      return state === 'completed' || state === 'failed';
    });
  const skipped = new Set(refused.invalid);
  const added = rows
    .filter((row) => !record.rows.some((r) => r.row === row.row) && !skipped.has(row.row))
    .map((row) => row.row);
  return { changed, added };
}

/** The one line that announces an ended batch, and whether it counts as a failure. */
export function batchEndedSummary(view: WholeBatch): { title: string; body: string; outcome: 'completed' | 'failed' } {
  const failed = (view.counts.failed ?? 0) + (view.counts['outcome-unknown'] ?? 0) + (view.counts.stalled ?? 0);
  const parts = [
    `${view.counts.completed ?? 0} done`,
    ...(failed ? [`${failed} failed`] : []),
    ...(view.counts.invalid ? [`${view.counts.invalid} refused`] : []),
  ];
  return {
    title: `Batch "${view.label}" finished`,
    body: `${parts.join(', ')} of ${view.rows.length} rows`,
    outcome: failed ? 'failed' : 'completed',
  };
}

export const DAY = 24 * 3_600_000;

/** Done rows whose results expire within 24 hours (the expiry warning asks the record of copies which are saved). */
export function expiringSoon(view: WholeBatch, now: number): BatchRowView[] {
  return view.rows.filter(
    (row) =>
      row.jobId !== null &&
      row.resultUrl !== null &&
      row.expiresAt !== null &&
      row.expiresAt > now &&
      row.expiresAt - now <= DAY,
  );
}
