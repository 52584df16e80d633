import { z } from 'zod';
import { PaidConfirmation } from '../jobs/cost-model';
import { RunCap, RunPause } from '../jobs/run-pause';
import { RunAtService } from '../jobs/run-at-service';
import { RunWork } from '../campaign/campaign-work';
import { CampaignRowRecord, CampaignState, type CampaignRecord } from '../campaign/record';
import { RowSelection } from '../campaign/row-selection';
import { Project } from '../composition/document';
import { call } from './contract';
import { PriceQuote } from './jobs';
import { QueueStatus } from './queue-status';

/**
 * Campaigns for the page: a template project from the library and a spreadsheet the user chose become
 * one video per row. The host reads the file, checks every row, prices the rows once, and runs them.
 */
export const CampaignInput = z
  .object({
    /** The template: a project of the library, with {{variables}}. */
    projectId: z.string().min(1).max(200).optional(),
    /**
     * Or the template itself, for a caller that holds it as a file (the command line); its media are
     * links, or local files named to the host (granted references).
     */
    project: Project.optional(),
    /**
     * The campaign's id, given by a caller that finds it again by it (the command line: from its output
     * folder). Starting a campaign whose id exists goes on with it: rows unchanged since keep their
     * videos, changed and new rows are made; default a new campaign.
     */
    key: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,99}$/)
      .optional(),
    /** Going on with a campaign (`key`): its failed rows are made again too. */
    retryFailed: z.boolean().optional(),
    /** With retryFailed: the rows waiting for review too (a worker stopped mid-create; they may be paid for). */
    retryUnknown: z.boolean().optional(),
    /** The spreadsheet, by the reference the host granted when the user chose it (batches.chooseSheet). */
    file: z.string().min(1).max(4096),
    label: z.string().min(1).max(500),
    /** The output file names, e.g. "{{row}} - {{first name}}". */
    fileName: z.string().min(1).max(500),
    /** By variable, the column to read it from when the names differ. */
    mapping: z.record(z.string().max(200), z.string().max(200)).optional(),
    concurrency: z.number().int().min(1).max(32).default(4),
    /** Cells the user corrected in the check's table, by row (0-based) and variable key; the file itself is not changed. */
    edits: z.record(z.string().regex(/^\d{1,6}$/), z.record(z.string().max(200), z.string().max(20_000))).optional(),
    /** An absolute folder on the host's machine for the videos and manifest.csv. */
    outDir: z.string().min(1).max(4096),
    /** "Stop after N credits": the campaign pauses before a create that would pass it. */
    maxCredits: RunCap.optional(),
    /**
     * What to do with a row whose file name is taken in the folder by a file that is not its own
     * identical video: keep both (the row gets a new name), replace the file, or skip the row. Without
     * it such a campaign does not start (the check lists those rows in `existing`).
     */
    existing: z.enum(['skip', 'replace', 'rename']).optional(),
    /**
     * Make the rows on a queue (`redis://[:password@]host:port`) by `studio worker` processes on any
     * machine, instead of on this computer; the studio saves its own copy of each as it comes back.
     */
    queue: z.string().min(1).max(2000).optional(),
    /**
     * Only these rows of the spreadsheet, by their numbers in it (sheet rows, as rows are named): the
     * others are not checked, priced or made (a row still waiting from an earlier run is cancelled).
     */
    rows: RowSelection.optional(),
  })
  .refine((input) => (input.projectId === undefined) !== (input.project === undefined), {
    message: 'give either a project of the library or a template project, not both',
  });
export type CampaignInput = z.input<typeof CampaignInput>;

export const CampaignCheckView = z.object({
  readAs: z.string(),
  /** The template's variables in its order: `id` as the rows' values are keyed, `name` as written. */
  variables: z.array(z.object({ id: z.string(), name: z.string() })),
  columns: z.record(z.string(), z.string()),
  /** Header cells no variable reads: what a variable can be mapped to besides the columns in use. */
  unused: z.array(z.string()),
  /** What stops the whole campaign: nothing can start while there is one. */
  problems: z.array(z.string()),
  /** Rows whose file name is taken in the folder by a file that is not their video (the input's `existing` decides). */
  existing: z
    .array(z.object({ row: z.number().int(), line: z.number().int().nullable().optional(), fileName: z.string() }))
    .default([]),
  /** Rows whose identical video is in the folder already, intact: kept, not sent (0 jobs). */
  kept: z.number().int().default(0),
  rows: z.array(
    z.object({
      row: z.number().int(),
      /** Its number in the spreadsheet, as rowLabel names it. */
      line: z.number().int().optional(),
      fileName: z.string(),
      values: z.record(z.string(), z.string()),
      problems: z.array(z.string()),
      /** Why a row that passes is held before anything is sent (its voice overruns a fixed scene, a value is absurdly long). */
      held: z.array(z.string()).default([]),
    }),
  ),
  /** How the rows' speech lengths were estimated (null: no fixed scene has a script to fit). */
  speech: z.string().nullable().default(null),
});
export type CampaignCheckView = z.infer<typeof CampaignCheckView>;

const Counts = z.record(z.string(), z.number());

export const CampaignSummary = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.number(),
  state: CampaignState,
  outDir: z.string(),
  counts: Counts,
  total: z.number().int(),
  /** Why it stopped creating on its own (out of credits, the day's limit, its cap); null: it did not. */
  pause: RunPause.nullable().default(null),
  /** "Stop after N credits" (null: no cap). */
  maxCredits: RunCap.default(null),
  /** The queue its rows are made on, as `redis://host:port` without its password; null or absent: on this computer. */
  queue: z.string().nullish(),
});
export type CampaignSummary = z.infer<typeof CampaignSummary>;

export const CampaignView = CampaignSummary.extend({
  /** The spreadsheet's variables: `id` is the name compared with columns (case and spacing aside), `name` as written. */
  variables: z.array(z.object({ id: z.string(), name: z.string() })),
  rows: z.array(CampaignRowRecord),
  /** Credits the service charged each row, every take and retried step included, by row (0-based); a row it has not charged is absent. */
  charged: z.record(z.string(), z.number()).default({}),
  /** "The balance fell by 1,240 credits; its jobs' prices add up to 1,200." (null: no readings). */
  balanceNote: z.string().nullable().default(null),
  /** Its jobs the service holds now (sent, not ended), from the ledger: what a pause still finishes (null: not read). */
  atService: RunAtService.nullish(),
  /** How far its work has gone step by step, for its pace (null: not read). */
  work: RunWork.nullish(),
});
export type CampaignView = z.infer<typeof CampaignView>;

/**
 * A campaign as lists show it: its own fields and its rows counted by state, which the host has the
 * database count (a list reads no row).
 */
export function campaignSummaryOf(
  record: Omit<CampaignRecord, 'rows'>,
  counts: Record<string, number>,
  total: number,
): CampaignSummary {
  return {
    id: record.id,
    label: record.label,
    createdAt: record.createdAt,
    state: record.state,
    outDir: record.outDir,
    counts,
    total,
    pause: record.pause ?? null,
    maxCredits: record.maxCredits ?? null,
    queue: record.queue ?? null,
  };
}

/** A record as the page sees it: no template document, counts by state, and what each row was charged. */
export function campaignView(
  record: CampaignRecord,
  charged: ReadonlyMap<number, number | null> = new Map(),
  balanceNote: string | null = null,
  atService: RunAtService | null = null,
  work: RunWork | null = null,
): CampaignView {
  const costs = Object.fromEntries(
    [...charged]
      .filter((entry): entry is [number, number] => entry[1] !== null)
      .map(([row, credits]) => [String(row), credits]),
  );
  return {
    ...campaignSummary(record),
    variables: record.variables.map((v) => ({ id: v.key, name: v.name })),
    rows: record.rows,
    charged: costs,
    balanceNote,
    atService,
    work,
  };
}

/** The summary of a campaign held whole, its rows counted here. */
export function campaignSummary(record: CampaignRecord): CampaignSummary {
  const counts: Record<string, number> = {};
  for (const row of record.rows) counts[row.state] = (counts[row.state] ?? 0) + 1;
  return campaignSummaryOf(record, counts, record.rows.length);
}

const id = z.string().min(1).max(200);
const rowNumber = z.number().int().nonnegative().max(100_000);

/** One picture the host drew: a row's first frame, or a contact sheet of several. */
export const CampaignStill = z.object({
  /** data:image/png;base64,… or data:image/jpeg;base64,… */
  dataUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** The rows it shows (0-based), in reading order. */
  rows: z.array(z.number().int()),
});
export type CampaignStill = z.infer<typeof CampaignStill>;

/** Where a campaign's rows are made, and for a queue what it holds now (the queue's answer, as a batch's). */
export const CampaignQueueStatus = QueueStatus;
export type CampaignQueueStatus = QueueStatus;

/** Most rows a contact sheet shows. */
export const CONTACT_SHEET_MAX_ROWS = 24;

export const campaignsCalls = {
  /** Reads the spreadsheet and checks every row against the template; sends nothing. */
  'campaigns.check': call(z.tuple([CampaignInput]), CampaignCheckView),
  /** The one question's price: every voiceover and video of the rows that pass the check. */
  'campaigns.quote': call(z.tuple([CampaignInput]), PriceQuote),
  /** Starts the campaign of the rows that pass the check, on the user's answer to its total. */
  'campaigns.create': call(z.tuple([CampaignInput, PaidConfirmation]), CampaignView),
  'campaigns.list': call(z.tuple([]), z.array(CampaignSummary)),
  'campaigns.get': call(z.tuple([id]), CampaignView),
  /** No new row starts; rows under way finish. */
  'campaigns.pause': call(z.tuple([id]), CampaignView),
  'campaigns.resume': call(z.tuple([id]), CampaignView),
  /** Rows not sent yet never are. */
  'campaigns.cancel': call(z.tuple([id]), CampaignView),
  /** Makes one ended row again (0-based): new paid jobs, so the user's answer to their price comes with it. */
  'campaigns.retryRow': call(
    z.tuple([id, z.number().int().nonnegative().max(100_000), PaidConfirmation]),
    CampaignView,
  ),
  /** The price of making the held rows that fit once every scene follows its voice (campaigns.fitHeld). */
  'campaigns.quoteHeld': call(z.tuple([id]), PriceQuote),
  /**
   * Fits the held rows by letting every scene of the campaign follow its voice, and makes those that then
   * fit (new paid jobs: the user's answer to their price comes with it). A row held for a value too long
   * for its sentence stays held until its cell is fitted.
   */
  'campaigns.fitHeld': call(z.tuple([id, PaidConfirmation]), CampaignView),
  /** The price of making one row again. */
  'campaigns.quoteRow': call(z.tuple([id, rowNumber]), PriceQuote),
  /** The one price of making every failed row again. */
  'campaigns.quoteFailed': call(z.tuple([id]), PriceQuote),
  /** Makes every failed row again (each its next take) on the user's answer to their one price. */
  'campaigns.retryFailed': call(z.tuple([id, PaidConfirmation]), CampaignView),
  /** Sets or removes the campaign's cap ("stop after N credits"); a campaign paused at its cap goes on when resumed. */
  'campaigns.setCap': call(z.tuple([id, RunCap]), CampaignView),
  /**
   * One checked row's own project (the template filled with its values), for a local preview with the
   * draft voice through preview.render before anything is paid.
   */
  'campaigns.rowProject': call(z.tuple([CampaignInput, rowNumber]), Project),
  /** The first frames of the first `rows` rows that pass the check, side by side in one picture. */
  'campaigns.contactSheet': call(
    z.tuple([CampaignInput, z.object({ rows: z.number().int().min(1).max(CONTACT_SHEET_MAX_ROWS) })]),
    CampaignStill,
  ),
  /** A row's thumbnail: a frame of its saved video once there is one, else its filled project's first frame. */
  'campaigns.rowStill': call(z.tuple([id, rowNumber]), CampaignStill),
  /** Where the campaign's rows are made: this computer, or a queue with its counts and the workers seen on it. */
  'campaigns.queueStatus': call(z.tuple([id]), CampaignQueueStatus),
  /** Opens a saved row's video with the system's player (the desktop app); otherwise says where it is. */
  'campaigns.openFile': call(z.tuple([id, rowNumber]), z.object({ path: z.string(), opened: z.boolean() })),
};

export const campaignsEvents = {
  'campaigns.changed': CampaignSummary,
};
