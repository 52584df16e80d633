import { join } from 'node:path';
import Papa from 'papaparse';
import type { JobView } from '../../common/bridge/jobs';
import type { CampaignRecord } from '../../common/campaign/record';
import { describeRunBalance, runFigures } from '../../common/jobs/run-balance';
import { writeFileAtomic } from '../projects/atomic-file';
import { stepOf } from './row-project';
import { sheetRow } from '../../common/text/row-label';

export const CAMPAIGN_MANIFEST = 'manifest.csv';

/** What a row's current take was charged, summed over its jobs; null while the service reported no charge. */
export function rowCosts(record: CampaignRecord, jobs: readonly JobView[]): Map<number, number | null> {
  const takes = new Map(record.rows.map((r) => [r.row, r.take]));
  const costs = new Map<number, number | null>(record.rows.map((r) => [r.row, null]));
  for (const job of jobs) {
    const step = stepOf(job, record.id);
    if (!step || takes.get(step.row) !== step.take || job.chargedCredits === null) continue;
    costs.set(step.row, Math.round(((costs.get(step.row) ?? 0) + job.chargedCredits) * 100) / 100);
  }
  return costs;
}

/** The campaign's fall in balance beside the sum of its jobs' figures (every take), since its first reading. */
export function campaignBalanceNote(record: CampaignRecord, jobs: readonly JobView[]): string | null {
  if (!record.balance) return null;
  const own = jobs.filter((job) => job.purpose.type === 'campaign-row' && job.purpose.campaignId === record.id);
  return describeRunBalance(record.balance, runFigures(own, record.balance.startedAt));
}

/**
 * The manifest: one line per row of the spreadsheet, refused rows included, with the row's values (a
 * column per variable), its state and why, its file, the result link and when it expires, and what it
 * cost. A byte-order mark opens it so Excel reads its accents, and cells cannot become formulas.
 */
export function campaignManifestCsv(record: CampaignRecord, jobs: readonly JobView[]): string {
  const costs = rowCosts(record, jobs);
  const names = record.variables.map((v) => v.name);
  const lines = record.rows.map((row) => ({
    sheet_row: sheetRow(row),
    ...Object.fromEntries(record.variables.map((v) => [v.name, row.values[v.key] ?? ''])),
    status: row.state,
    reason: row.problems.join(' · '),
    file: row.state === 'done' ? row.fileName : '',
    link: row.resultUrl ?? '',
    expiry: row.expiresAt ? new Date(row.expiresAt).toISOString() : '',
    cost_credits: costs.get(row.row) ?? '',
  }));
  return `\uFEFF${Papa.unparse(lines, { columns: ['sheet_row', ...names, 'status', 'reason', 'file', 'link', 'expiry', 'cost_credits'], escapeFormulae: true })}\r\n`;
}

export async function writeCampaignManifest(record: CampaignRecord, jobs: readonly JobView[]): Promise<string> {
  const path = join(record.outDir, CAMPAIGN_MANIFEST);
  await writeFileAtomic(path, campaignManifestCsv(record, jobs));
  return path;
}
