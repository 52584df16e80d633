import { z } from 'zod';
import { PaidConfirmation } from '../jobs/cost-model';
import { RunCap, RunPause } from '../jobs/run-pause';
import { RunAtService } from '../jobs/run-at-service';
import { call } from './contract';
import { ttsCreateBodySchema } from '../api/voice';
import { describeIssues } from '../api';
import { QueueStatus } from './queue-status';

/** One voiceover of a batch, as the user gave it (a CSV line or a pasted line). */
export const BatchRow = z.object({
  /** 0-based place among the input's rows: what jobs, edits and {row} are keyed by. */
  row: z.number().int().nonnegative(),
  /** Its number in the spreadsheet or pasted text, as rowLabel names it (absent in records written before it was read). */
  line: z.number().int().positive().optional(),
  text: z.string(),
  voiceId: z.string(),
  /** `<n>%`, as the service takes it. */
  rate: z.string(),
  /** The row's own name for its file, when the input has a name column. */
  name: z.string().nullable(),
});
export type BatchRow = z.infer<typeof BatchRow>;

/** A row that cannot be sent, and why. */
export const BatchProblem = z.object({ row: z.number().int().nonnegative(), message: z.string() });
export type BatchProblem = z.infer<typeof BatchProblem>;

/** Where a batch stands as a whole. */
export const BatchState = z.enum(['running', 'paused', 'cancelled', 'finished']);
export type BatchState = z.infer<typeof BatchState>;

/** A row's state, read from the ledger (the job of the row) and the batch's own record. */
export const BatchRowState = z.enum([
  'waiting',
  'sending',
  'queued',
  'processing',
  'completed',
  'failed',
  'outcome-unknown',
  'stalled',
  'cancelled',
  'invalid',
]);
export type BatchRowState = z.infer<typeof BatchRowState>;

/** Row states the batch does nothing more about on its own. */
export const BATCH_ROW_STATES_ENDED: ReadonlySet<BatchRowState> = new Set([
  'completed',
  'failed',
  'outcome-unknown',
  'stalled',
  'cancelled',
  'invalid',
]);

export const DEFAULT_BATCH_TEMPLATE = '{row}-{name|text}';

/** Checks one row against the service's rules for a TTS request; null when it can be sent. */
export function batchRowProblem(row: Pick<BatchRow, 'text' | 'voiceId' | 'rate'>): string | null {
  if (row.voiceId.trim() === '') return 'no voice: give a voice column or a default voice';
  const checked = ttsCreateBodySchema.safeParse({ input_text: row.text, voice_id: row.voiceId, rate: row.rate });
  return checked.success ? null : describeIssues(checked.error);
}

/**
 * "50", "50%", " 50 % " → "50%", and "0.5" → "50%" (a percentage cell of a workbook holds the fraction);
 * null when it is not a rate from 0% to 100%.
 */
export function normaliseRate(value: string): string | null {
  const fraction = /^0?\.(\d+)$/.exec(value.trim());
  if (fraction) return `${Math.round(Number(`0.${fraction[1]}`) * 100)}%`;
  const match = /^(\d{1,3})\s*%?$/.exec(value.trim());
  return match && Number(match[1]) <= 100 ? `${Number(match[1])}%` : null;
}

/** One row as a batch view shows it. */
export const BatchRowView = BatchRow.extend({
  state: BatchRowState,
  /** The row's newest job, when it was sent. */
  jobId: z.string().nullable(),
  resultUrl: z.string().nullable(),
  expiresAt: z.number().nullable(),
  /** Why the row failed or was refused, in plain words. */
  problem: z.string().nullable(),
  /** Credits the service reported charging for the row's job; null when it reported none. */
  chargedCredits: z.number().nullable().default(null),
  /** When the row's job ended (ms since the epoch), for the batch's pace; null while it has not. */
  endedAt: z.number().nullable().default(null),
});
export type BatchRowView = z.infer<typeof BatchRowView>;

/** A batch without its rows: what lists and progress events carry. */
export const BatchSummary = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.number(),
  state: BatchState,
  concurrency: z.number(),
  template: z.string(),
  counts: z.record(BatchRowState, z.number()),
  /** Rows that ended (completed, failed, refused, cancelled) out of all rows. */
  done: z.number(),
  /** "The balance fell by 62 credits; its jobs' prices add up to 60." (null: no readings). */
  balanceNote: z.string().nullable().optional(),
  /** Its jobs the service holds now (sent, not ended), from the ledger: what a pause still finishes. */
  atService: RunAtService.nullish(),
  /** Why the batch stopped creating on its own (out of credits, the day's limit, its cap); null: it did not. */
  pause: RunPause.nullable().optional(),
  /** "Stop after N credits" (null: no cap). */
  maxCredits: RunCap.optional(),
  /** The queue its rows are made on, as `redis://host:port` without its password; null or absent: on this computer. */
  queue: z.string().nullish(),
  /** Its rows, all of them. */
  total: z.number(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

/**
 * What a batch's pace and projected cost are reckoned from, read off its rows by the host that holds
 * them (see batchRunProgress), so the page and the command line follow a batch without its rows.
 */
export const BatchPace = z.object({
  /** When each completed row's job ended (ms since the epoch). */
  doneAt: z.array(z.number()),
  /** What a completed row was charged on average; null before one was charged. */
  rowCharge: z.number().nullable(),
  /** Credits charged so far for the batch's rows. */
  spent: z.number(),
});
export type BatchPace = z.infer<typeof BatchPace>;

/**
 * A batch as its page and the command line follow it: its summary, its pace and how many rows Save has
 * a file for. Its rows are read a page at a time (batches.rows): a batch of 100,000 rows sent whole at
 * each of its rows' changes held the page for seconds.
 */
export const BatchView = BatchSummary.extend({
  pace: BatchPace,
  /** Rows with a take to save (a result, or the last good one of a row being made again). */
  withResults: z.number().int().nonnegative(),
});
export type BatchView = z.infer<typeof BatchView>;

/** A window of a batch's rows, in the batch's order: all of them, or those with a problem (batchRowHasProblem). */
export const BatchRowsQuery = z.object({
  offset: z.number().int().nonnegative().max(100_000),
  limit: z.number().int().min(1).max(500),
  filter: z.enum(['all', 'problems']).default('all'),
});
export type BatchRowsQuery = z.input<typeof BatchRowsQuery>;

export const BatchRowsPage = z.object({
  /** Rows the query's filter keeps, in all. */
  total: z.number().int().nonnegative(),
  /** Rows with a problem in all (the filter's count). */
  problems: z.number().int().nonnegative(),
  rows: z.array(BatchRowView),
});
export type BatchRowsPage = z.infer<typeof BatchRowsPage>;

/** Row states that ended without a result (or were refused): the page colours them as errors. */
export const BATCH_ROW_STATES_FAILED: ReadonlySet<BatchRowState> = new Set([
  'failed',
  'outcome-unknown',
  'stalled',
  'invalid',
]);

/**
 * A row the "only problems" filter keeps: refused by the check, failed (or its outcome unknown, or
 * stalled), held with a reason, or made with its saved file missing or changed on disk (`lostCopy`).
 */
export function batchRowHasProblem(row: Pick<BatchRowView, 'state' | 'problem'>, lostCopy: boolean): boolean {
  if (lostCopy || BATCH_ROW_STATES_FAILED.has(row.state)) return true;
  return row.state !== 'completed' && row.state !== 'cancelled' && row.problem !== null;
}

/**
 * Which column of a batch's table holds what (0-based; -1: none), and whether its first line is a header.
 * Given by the user when the header was not recognised; answered by every check, so the page shows it.
 */
export const BatchColumns = z.object({
  header: z.boolean(),
  text: z.number().int().min(0).max(1000),
  voice: z.number().int().min(-1).max(1000).default(-1),
  rate: z.number().int().min(-1).max(1000).default(-1),
  name: z.number().int().min(-1).max(1000).default(-1),
});
export type BatchColumns = z.infer<typeof BatchColumns>;

/** What a check found about the columns: the header's cells, the mapping used (null: none yet), the cells not used. */
export const BatchColumnsFound = z.object({
  cells: z.array(z.string()),
  mapping: BatchColumns.nullable(),
  unused: z.array(z.string()),
});
export type BatchColumnsFound = z.infer<typeof BatchColumnsFound>;

/** A spreadsheet the user chose, taken in by the host (see importFile) and granted to the page by reference. */
export const ChosenSheet = z.object({
  /** The granted file: reference, for `BatchInput.file`. */
  url: z.string(),
  name: z.string(),
  /** Lines with anything in them, the header included. */
  lines: z.number().int().nonnegative(),
  /** How it was read: "a semicolon-separated file in Windows-1252 (Western European)". */
  readAs: z.string(),
});
export type ChosenSheet = z.infer<typeof ChosenSheet>;

/**
 * A change the user made to one row in the table (0-based row of the input). A field left out keeps what
 * the file says; the voice may be a name ("Ava") or an id; an empty voice or rate takes the batch's default.
 */
export const BatchRowEdit = z.object({
  row: z.number().int().nonnegative().max(100_000),
  text: z.string().max(200_000).optional(),
  voice: z.string().max(200).optional(),
  rate: z.string().max(20).optional(),
  name: z.string().max(500).optional(),
});
export type BatchRowEdit = z.infer<typeof BatchRowEdit>;

/**
 * A batch to check or start: a spreadsheet file the user chose (by its granted reference, read by the
 * host in any encoding or as .xlsx) or lines they pasted, with the user's edits and deletions on top.
 */
export const BatchInput = z
  .object({
    csv: z
      .string()
      .max(20 * 1024 * 1024)
      .optional(),
    file: z.string().max(4096).optional(),
    label: z.string().min(1).max(500),
    /**
     * The batch's id, given by a caller that finds it again by it (the command line: from its sheet and
     * folder, so running the same command again goes on with the same batch); default a new one.
     */
    key: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,99}$/)
      .optional(),
    defaults: z.object({ voiceId: z.string().max(200).optional(), rate: z.string().max(10).optional() }),
    concurrency: z.number().int().min(1).max(32).default(4),
    template: z.string().min(1).max(500).default(DEFAULT_BATCH_TEMPLATE),
    /** The user's mapping of the columns; without it, the header's names are recognised. */
    columns: BatchColumns.optional(),
    /** Cells the user changed in the table before sending; each edited row is checked again. */
    edits: z.array(BatchRowEdit).max(10_000).optional(),
    /** Rows the user deleted from the table: never sent, never in the batch (the others keep their numbers). */
    removed: z.array(z.number().int().nonnegative().max(100_000)).max(100_000).optional(),
    /** "Stop after N credits": the batch pauses before a create that would pass it. */
    maxCredits: RunCap.optional(),
    /** Make the rows on a queue (`redis://[:password@]host:port`) by `studio worker` processes instead of here. */
    queue: z.string().min(1).max(2000).optional(),
  })
  .refine((input) => (input.csv === undefined) !== (input.file === undefined), {
    message: 'give either a spreadsheet file or pasted lines, not both',
  });
export type BatchInput = z.input<typeof BatchInput>;
/** A batch input as the host's handlers receive it: validated, its defaults filled in. */
export type CheckedBatchInput = z.output<typeof BatchInput>;

const id = z.string().min(1).max(200);

export const batchesCalls = {
  /** Reads and checks the rows; sends nothing. */
  'batches.check': call(
    z.tuple([BatchInput]),
    z.object({ rows: z.array(BatchRow), problems: z.array(BatchProblem), columns: BatchColumnsFound }),
  ),
  /** Starts a batch of the rows that pass the checks (the others are kept, marked invalid). */
  'batches.create': call(z.tuple([BatchInput, PaidConfirmation.optional()]), BatchView),
  'batches.list': call(z.tuple([]), z.array(BatchSummary)),
  'batches.get': call(z.tuple([id]), BatchView),
  /** A window of the batch's rows (the table's page in view), all or those with a problem. */
  'batches.rows': call(z.tuple([id, BatchRowsQuery]), BatchRowsPage),
  'batches.pause': call(z.tuple([id]), BatchView),
  'batches.resume': call(z.tuple([id]), BatchView),
  'batches.cancel': call(z.tuple([id]), BatchView),
  /**
   * What starting a batch again from its edited spreadsheet would send (nothing is sent): the rows that
   * had ended and whose script, voice or rate changed, and the rows new to it (0-based rows).
   */
  'batches.revision': call(
    z.tuple([id, BatchInput]),
    z.object({ changed: z.array(z.number().int()), added: z.array(z.number().int()) }),
  ),
  /**
   * The batch again from its edited spreadsheet: unchanged rows keep their jobs and results; changed rows
   * that had ended, and new rows, are sent (new paid jobs, so the user's answer to their price comes
   * with them). A paused batch goes on.
   */
  'batches.revise': call(z.tuple([id, BatchInput, PaidConfirmation.optional()]), BatchView),
  /** Sends the failed rows again: new paid jobs, so the user's answer to their price comes with them. */
  'batches.retryFailed': call(z.tuple([id, PaidConfirmation]), BatchView),
  /** Where the batch's rows are made: this computer, or a queue with its counts and the workers seen on it. */
  'batches.queueStatus': call(z.tuple([id]), QueueStatus),
  /** Sets or removes the batch's cap ("stop after N credits"); a batch paused at its cap goes on when resumed. */
  'batches.setCap': call(z.tuple([id, RunCap]), BatchView),
  /** Makes one ended row again: a new paid job for that row only (0-based row). */
  'batches.redoRow': call(
    z.tuple([id, z.number().int().nonnegative().max(100_000), PaidConfirmation.optional()]),
    BatchView,
  ),
  /**
   * Changes one row of a started batch. A row not sent yet changes only while the batch is paused (or
   * finished); a row that ended is made again with the change when `remake` is true (a new paid job).
   */
  'batches.editRow': call(
    z.tuple([id, BatchRowEdit, z.object({ remake: z.boolean(), confirmation: PaidConfirmation.optional() })]),
    BatchView,
  ),
  /** Deletes rows not sent yet from a paused batch; a sent row is paid for and stays. */
  'batches.removeRows': call(
    z.tuple([id, z.array(z.number().int().nonnegative().max(100_000)).min(1).max(100_000)]),
    BatchView,
  ),
  /**
   * Saves every completed row's audio and manifest.csv into an absolute folder on the host's machine. A
   * file the studio did not save at a row's name is never written over unasked: `existing` says keep both
   * (a new name), replace, or skip the row; without it the file stays and the row is among the failed.
   */
  'batches.export': call(
    z.tuple([
      id,
      z.string().min(1).max(1000),
      z.object({ existing: z.enum(['skip', 'replace', 'rename']).optional() }).optional(),
    ]),
    z.object({
      folder: z.string(),
      saved: z.number(),
      inFolder: z.number(),
      /** Rows not saved, with their number in the sheet (line) for naming them. */
      failed: z.array(z.object({ row: z.number(), line: z.number().optional(), error: z.string() })),
      manifest: z.string(),
    }),
  ),
};

export const batchesEvents = {
  'batches.changed': BatchSummary,
  /** How far a Save has got: rows whose file is in the folder or failed, of those to save. */
  'batches.saving': z.object({
    id: z.string(),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
};
