import { z } from 'zod';
import { Project, ProjectKind } from '../composition/document';
import { RunBalance } from '../jobs/run-balance';
import { RunCap, RunPause } from '../jobs/run-pause';

/**
 * A campaign as it is kept on disk: the template, and one durable record per row with its own state.
 * A row is self-contained (its values, its file, where its chain stands), so rows could later be handed
 * to a queue engine on several machines; which jobs a row made is in the ledger (their purpose names
 * the campaign, row, step and take), so after a crash the ledger says what was sent and nothing is
 * created twice because this record was older than the ledger.
 */

/**
 * pending → voiceover → video → download → done, or failed; invalid rows are never sent. A held row
 * waits for the user to fit it (its voice overruns a fixed scene, a value is absurdly long): it is not
 * sent, and the campaign does not finish while it waits; revising the campaign releases it once it fits.
 */
export const CampaignRowState = z.enum([
  'pending',
  'held',
  'voiceover',
  'video',
  'download',
  'done',
  'failed',
  'invalid',
  'cancelled',
]);
export type CampaignRowState = z.infer<typeof CampaignRowState>;

/** States a row does nothing more about on its own. */
export const CAMPAIGN_ROW_ENDED: ReadonlySet<CampaignRowState> = new Set(['done', 'failed', 'invalid', 'cancelled']);
/** States of a row that holds one of the campaign's places (sent, or about to be). */
export const CAMPAIGN_ROW_UNDER_WAY: ReadonlySet<CampaignRowState> = new Set(['voiceover', 'video', 'download']);

export const CampaignRowRecord = z.object({
  /** 0-based place under the spreadsheet's header: what jobs, edits and {{row}} are keyed by. */
  row: z.number().int().nonnegative(),
  /** Its number in the spreadsheet, as rowLabel names it (absent in records written before it was read). */
  line: z.number().int().positive().optional(),
  /** Every column's value by variable key, as the spreadsheet gave it. */
  values: z.record(z.string(), z.string()),
  /** The result's file inside the campaign's folder ("07 - Ana.mp4"). */
  fileName: z.string().min(1).max(1000),
  state: CampaignRowState,
  /** Why the row is invalid, held, failed or cancelled (and, held, how to fit it); empty otherwise. */
  problems: z.array(z.string().max(2000)),
  /** 0 for the first try; each retry sends new jobs under the next take. */
  take: z.number().int().nonnegative(),
  /** The voiceovers of this take, by scene id (their audio links). */
  voiceovers: z.record(z.string(), z.string()),
  /** Each voice's measured length in ms, by scene id, once known (scenes that follow their voice take it). */
  voiceLengths: z.record(z.string(), z.number().nonnegative()).optional(),
  resultUrl: z.string().nullable(),
  /** When the result link stops working (ms since the epoch). */
  expiresAt: z.number().nullable(),
  /**
   * A template with several formats: each format's made video by formatKey, the one being edited
   * included, kept as each ends so a retry pays only for those missing. `resultUrl` is set once all are
   * made (the row goes on to its save). Absent: the template has one format.
   */
  formatResults: z.record(z.string(), z.object({ resultUrl: z.string(), expiresAt: z.number().nullable() })).optional(),
  /** Set once the file is saved in the folder. */
  savedAt: z.number().nullable(),
  /**
   * Made on a queue by a worker given a bucket: where that worker copied the file (s3://bucket/key);
   * null when its upload failed. Absent: made without a bucket.
   */
  bucketCopy: z.string().max(4096).nullable().optional(),
  /**
   * What the row's result is made from (row-identity.ts): the template's version, the row's values, the
   * output name asked for and the target. A done row of the same folder with the same identity and an
   * intact copy is the same video: it is kept, not made again. Absent in records older than it.
   */
  madeFrom: z.string().max(200).optional(),
  /** The user chose to replace a file of another origin at the row's name (set when starting). */
  replaceFile: z.boolean().optional(),
});
export type CampaignRowRecord = z.infer<typeof CampaignRowRecord>;

/** The note of a row kept from its folder: made by an earlier campaign there, nothing paid for it in this one. */
export const MADE_EARLIER = 'made earlier, kept';

/** Whether the row is one kept from its folder (its video made and paid for by an earlier campaign). */
export const keptFromFolder = (row: Pick<CampaignRowRecord, 'state' | 'problems'>): boolean =>
  row.state === 'done' && row.problems.includes(MADE_EARLIER);

export const CampaignState = z.enum(['running', 'paused', 'cancelled', 'finished']);
export type CampaignState = z.infer<typeof CampaignState>;

export const CampaignRecord = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[\w-]{1,200}$/),
  label: z.string().max(500),
  createdAt: z.number(),
  target: ProjectKind,
  template: z.object({ project: Project, fileName: z.string().min(1).max(500) }),
  /** The variables the spreadsheet gives, by key, in the template's order (the manifest's columns). */
  variables: z.array(z.object({ key: z.string(), name: z.string() })),
  /** Columns of the spreadsheet no variable reads, by key: the manifest keeps them (an email for a mail merge). */
  kept: z.array(z.object({ key: z.string(), name: z.string() })).optional(),
  /** Where a path given in a link column is read from (the spreadsheet's folder); null: links only. */
  sheetFolder: z.string().max(4096).nullable(),
  /** Voices given by name in the spreadsheet and the ids they were found to be, when the campaign was checked. */
  voiceIds: z.record(z.string(), z.string()),
  /** Where the results and the manifest are saved. */
  outDir: z.string().min(1).max(4096),
  state: CampaignState,
  concurrency: z.number().int().min(1).max(32),
  rows: z.array(CampaignRowRecord),
  /** The connection's balance when the campaign started sending, lately, and when it ended. */
  balance: RunBalance.optional(),
  /** Why it stopped creating on its own (out of credits, the day's limit, its cap); null once resumed. */
  pause: RunPause.nullable().optional(),
  /** "Stop after N credits" (null or absent: no cap). */
  maxCredits: RunCap.optional(),
  /** The queue its rows are made on, as a Redis address without its password; absent: this computer. */
  queue: z.string().max(2000).nullable().optional(),
  /** On a worker: the queued campaign this one-row run is a row of (it leaves no manifest of its own). */
  partOf: z.string().max(200).optional(),
});
export type CampaignRecord = z.infer<typeof CampaignRecord>;

/** Rows by state, for a progress line. */
export function campaignCounts(record: Pick<CampaignRecord, 'rows'>): Partial<Record<CampaignRowState, number>> {
  const counts: Partial<Record<CampaignRowState, number>> = {};
  for (const row of record.rows) counts[row.state] = (counts[row.state] ?? 0) + 1;
  return counts;
}

/** The one notice for a campaign that has ended (never one per row), and whether it counts as a failure. */
export function campaignEndedSummary(record: Pick<CampaignRecord, 'rows' | 'label'>): {
  title: string;
  body: string;
  outcome: 'completed' | 'failed';
} {
  const counts = campaignCounts(record);
  const failed = counts.failed ?? 0;
  const parts = [
    `${counts.done ?? 0} done`,
    ...(failed ? [`${failed} failed`] : []),
    ...(counts.invalid ? [`${counts.invalid} refused by the check`] : []),
    ...(counts.cancelled ? [`${counts.cancelled} cancelled`] : []),
  ];
  return {
    title: `Campaign "${record.label}" finished`,
    body: `${parts.join(', ')} of ${record.rows.length} rows`,
    outcome: failed ? 'failed' : 'completed',
  };
}
