import { z } from 'zod';
import { PaidConfirmation } from '../jobs/cost-model';
import { CampaignRowRecord, CampaignState, type CampaignRecord } from '../campaign/record';
import { call } from './contract';
import { PriceQuote } from './jobs';

/**
 * Campaigns for the page: a template project from the library and a spreadsheet the user chose become
 * one video per row. The host reads the file, checks every row, prices the rows once, and runs them.
 */
export const CampaignInput = z.object({
  /** The template: a project of the library, with {{variables}}. */
  projectId: z.string().min(1).max(200),
  /** The spreadsheet, by the reference the host granted when the user chose it (batches.chooseSheet). */
  file: z.string().min(1).max(4096),
  label: z.string().min(1).max(500),
  /** The output file names, e.g. "{{row}} - {{first name}}". */
  fileName: z.string().min(1).max(500),
  /** By variable, the column to read it from when the names differ. */
  mapping: z.record(z.string().max(200), z.string().max(200)).optional(),
  concurrency: z.number().int().min(1).max(16).default(4),
  /** An absolute folder on the host's machine for the videos and manifest.csv. */
  outDir: z.string().min(1).max(4096),
});
export type CampaignInput = z.input<typeof CampaignInput>;

export const CampaignCheckView = z.object({
  readAs: z.string(),
  columns: z.record(z.string(), z.string()),
  /** What stops the whole campaign: nothing can start while there is one. */
  problems: z.array(z.string()),
  rows: z.array(z.object({ row: z.number().int(), fileName: z.string(), values: z.record(z.string(), z.string()), problems: z.array(z.string()) })),
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
});
export type CampaignSummary = z.infer<typeof CampaignSummary>;

export const CampaignView = CampaignSummary.extend({
  /** The spreadsheet's variables: `id` is the name compared with columns (case and spacing aside), `name` as written. */
  variables: z.array(z.object({ id: z.string(), name: z.string() })),
  rows: z.array(CampaignRowRecord),
});
export type CampaignView = z.infer<typeof CampaignView>;

/** A record as the page sees it: no template document, counts by state. */
export function campaignView(record: CampaignRecord): CampaignView {
  const counts: Record<string, number> = {};
  for (const row of record.rows) counts[row.state] = (counts[row.state] ?? 0) + 1;
  return { id: record.id, label: record.label, createdAt: record.createdAt, state: record.state, outDir: record.outDir, counts, total: record.rows.length, variables: record.variables.map((v) => ({ id: v.key, name: v.name })), rows: record.rows };
}

export function campaignSummary(record: CampaignRecord): CampaignSummary {
  const { variables: _variables, rows: _rows, ...summary } = campaignView(record);
  return summary;
}

const id = z.string().min(1).max(200);

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
  'campaigns.retryRow': call(z.tuple([id, z.number().int().nonnegative().max(100_000), PaidConfirmation]), CampaignView),
  /** The price of making one row again. */
  'campaigns.quoteRow': call(z.tuple([id, z.number().int().nonnegative().max(100_000)]), PriceQuote),
};

export const campaignsEvents = {
  'campaigns.changed': CampaignSummary,
};
