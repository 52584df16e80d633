import { z } from 'zod';
import { BatchRow, BatchState } from '../../common/bridge/batches';
import { RunBalance } from '../../common/jobs/run-balance';
import { RunCap, RunPause } from '../../common/jobs/run-pause';
import type { RunStore, RunStores } from '../rows/engine/run-store';

/**
 * One row of a batch as the row engine keeps it: the user's input and the row's own state (pending →
 * speech → done, or failed, invalid, cancelled) and take. What its jobs did is in the ledger (each job
 * names its batch, row and take), so after a crash the ledger says what was sent.
 */
export const BatchRowRecord = BatchRow.extend({
  state: z.enum(['pending', 'speech', 'done', 'failed', 'invalid', 'cancelled']).default('pending'),
  take: z.number().int().nonnegative().default(0),
  problems: z.array(z.string().max(2000)).default([]),
});
export type BatchRowRecord = z.infer<typeof BatchRowRecord>;

/** A batch as it is kept on disk. */
export const BatchRecord = z.object({
  version: z.literal(1),
  id: z.string().min(1).max(200),
  /** What the user calls it: the CSV's file name, or "Pasted lines". */
  label: z.string().max(500),
  createdAt: z.number(),
  rows: z.array(BatchRowRecord),
  /** Rows that failed the checks: never sent. */
  invalid: z.array(z.number().int().nonnegative()),
  /** Why each of them was refused, by row number (batches made before this was kept have none). */
  reasons: z.record(z.string(), z.string().max(1000)).optional(),
  state: BatchState,
  /** Kept for batches written before the row engine; rows under way follow the connection's pace now. */
  concurrency: z.number().int().min(1).max(32),
  /**
   * Ended rows to make again, as the edits ask (batch-edits.ts); the engine turns each into the row's next
   * take at once, so a stored batch has none (older studios kept them here until the row was sent).
   */
  retry: z.array(z.number().int().nonnegative()),
  /** File names of the results, without extension. */
  template: z.string().max(500),
  /**
   * Where the batch's Save put each row's result, by row number: the file and the link it was fetched
   * from, so the next Save replaces a row's earlier file. Whether a row is saved is the record of copies'
   * (each file is recorded there), which sees a file deleted or rewritten since.
   */
  saved: z.record(z.string(), z.object({ path: z.string().max(4096), link: z.string().max(4096) })).optional(),
  /** The connection's balance when the batch started sending, lately, and when it ended. */
  balance: RunBalance.optional(),
  /** Why it stopped creating on its own (out of credits, the day's limit, its cap); null once resumed. */
  pause: RunPause.nullable().optional(),
  /** "Stop after N credits" (null or absent: no cap). */
  maxCredits: RunCap.optional(),
  /** The queue its rows are made on, as a Redis address without its password; absent: this computer. */
  queue: z.string().max(2000).nullable().optional(),
  /** On a worker: the queued batch this one-row run is a row of. */
  partOf: z.string().max(200).optional(),
});
export type BatchRecord = z.infer<typeof BatchRecord>;

/**
 * A batch written by an older studio keeps no row states: its rows read as pending (the engine asks the
 * ledger before sending, so a row already sent is not sent again) and a row it was to send again reads
 * as its next take.
 */
function upgraded(raw: unknown): unknown {
  const record = raw as { rows?: { row: number; state?: string; take?: number }[]; retry?: number[] };
  if (!Array.isArray(record?.rows) || record.rows.every((r) => r.state !== undefined)) return raw;
  const retry = new Set(record.retry ?? []);
  return {
    ...record,
    retry: [],
    rows: record.rows.map((r) => (r.state === undefined && retry.has(r.row) ? { ...r, take: (r.take ?? 0) + 1 } : r)),
  };
}

/** Batches among the folder's runs (kind `batches`, the folder earlier versions kept them in). */
export function batchRuns(runs: RunStores): RunStore<BatchRowRecord, BatchRecord> {
  return runs.of<BatchRowRecord, BatchRecord>(
    'batches',
    (raw, path) => {
      const parsed = BatchRecord.safeParse(upgraded(raw));
      if (!parsed.success)
        throw new Error(
          `The batch record ${path} cannot be read (${parsed.error.issues[0]?.message}); it was left as it is.`,
        );
      return parsed.data;
    },
    'batch',
  );
}

/** A batch whose rows are the user's input, their states perhaps left out (what the edits work on). */
export type BatchInputRecord = Omit<BatchRecord, 'rows'> & { rows: (BatchRow & Partial<BatchRowRecord>)[] };

/**
 * The rows of a batch after an edit or a revision (batch-edits.ts, revisionOf work on the user's input):
 * each keeps its state and take, a refused row reads invalid, a row no longer refused pending, and a row
 * the edit asks to make again (`retry`) starts its next take.
 */
export function settledRows(before: Pick<BatchRecord, 'rows'>, after: BatchInputRecord): BatchRecord {
  const invalid = new Set(after.invalid);
  const retry = new Set(after.retry);
  const rows = after.rows.map((input): BatchRowRecord => {
    const prev = before.rows.find((r) => r.row === input.row);
    const row: BatchRowRecord = {
      ...input,
      state: prev?.state ?? 'pending',
      take: prev?.take ?? 0,
      problems: prev?.problems ?? [],
    };
    if (invalid.has(row.row)) return { ...row, state: 'invalid' };
    if (retry.has(row.row) && prev && prev.state !== 'pending')
      return { ...row, state: 'pending', take: row.take + 1, problems: [] };
    if (row.state === 'invalid' || (row.state === 'cancelled' && after.state !== 'cancelled'))
      return { ...row, state: 'pending', problems: [] };
    return row;
  });
  return { ...after, rows, retry: [] };
}
