import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JobView } from '../../common/bridge/jobs';
import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import { describeRunBalance, readingCut, runFigures } from '../../common/jobs/run-balance';
import { runAtService, type RunAtService } from '../../common/jobs/run-at-service';
import { writeFileAtomic } from '../projects/atomic-file';
import { sheetRow } from '../../common/text/row-label';
import { campaignFormats, type CampaignFormat } from '../../common/campaign/campaign-formats';
import { rowFiles } from './row-files';
import { csvHeader, csvLine } from './manifest-lines';
import { campaignView, type CampaignView } from '../../common/bridge/campaigns';
import { campaignWork, campaignWorkFromSums, runWorkQuery } from '../../common/campaign/campaign-work';
import type { RunSumsReader } from '../jobs/run-sums';

export const CAMPAIGN_MANIFEST = 'manifest.csv';

/**
 * What a row was charged, summed over every job it sent (every take, retried steps included), so the
 * rows' costs add up to the campaign's charges; null while the service reported no charge.
 */
export function rowCosts(record: CampaignRecord, jobs: readonly JobView[]): Map<number, number | null> {
  return campaignCosts([record], jobs).get(record.id) ?? new Map();
}

/**
 * rowCosts of every campaign a manifest names (a folder's), in one look at the ledger: it holds every
 * job of every run the studio made, so a look per campaign, or per row, would grow with all of them.
 */
function campaignCosts(
  campaigns: Iterable<CampaignRecord>,
  jobs: readonly JobView[],
): Map<string, Map<number, number | null>> {
  const costs = new Map<string, Map<number, number | null>>();
  for (const campaign of campaigns)
    if (!costs.has(campaign.id)) costs.set(campaign.id, new Map(campaign.rows.map((r) => [r.row, null])));
  for (const job of jobs) {
    const purpose = job.purpose;
    if (purpose.type !== 'campaign-row' || job.chargedCredits === null) continue;
    const rows = costs.get(purpose.campaignId);
    const sum = rows?.get(purpose.row);
    // Its row is not (or no longer) one of the campaign's.
    if (!rows || sum === undefined) continue;
    rows.set(purpose.row, Math.round(((sum ?? 0) + job.chargedCredits) * 100) / 100);
  }
  return costs;
}

/** The campaign's fall in balance beside the sum of its jobs' figures (every take), since its first reading. */
export function campaignBalanceNote(record: CampaignRecord, jobs: readonly JobView[]): string | null {
  if (!record.balance) return null;
  const own = jobs.filter((job) => job.purpose.type === 'campaign-row' && job.purpose.campaignId === record.id);
  return describeRunBalance(record.balance, runFigures(own, record.balance.startedAt, readingCut(record.balance)));
}

/** The campaign's jobs the service holds now: what a pause still finishes, and at what cost. */
export function campaignAtService(record: CampaignRecord, jobs: readonly JobView[]): RunAtService {
  return runAtService(
    jobs.filter((job) => job.purpose.type === 'campaign-row' && job.purpose.campaignId === record.id),
  );
}

/** A campaign as the page sees it: what each row was charged, the balance's fall, its steps at the service, its work. */
export function campaignViewFromLedger(record: CampaignRecord, jobs: readonly JobView[], now: number): CampaignView {
  const work = campaignWork(record, jobs, now);
  return campaignView(
    record,
    rowCosts(record, jobs),
    campaignBalanceNote(record, jobs),
    campaignAtService(record, jobs),
    work,
  );
}

/**
 * The same view from the campaign's figures summed where its jobs are kept (records/run-job-sums.ts):
 * none of its jobs is read whole, and none stays held, however many the page shows.
 */
export function campaignViewFromSums(record: CampaignRecord, queries: RunSumsReader, now: number): CampaignView {
  const { balance } = record;
  const sums = queries.runSums({
    runId: record.id,
    purposeType: 'campaign-row',
    // The window campaignBalanceNote gives runFigures (readingCut: no end once the readings ended).
    ...(balance
      ? { balance: { since: balance.startedAt, until: balance.endedAt === null ? balance.latestAt : null } }
      : {}),
  });
  const charged = new Map(record.rows.map((r) => [r.row, sums.chargedByRow.get(r.row) ?? null]));
  const note = balance && sums.figures ? describeRunBalance(balance, sums.figures) : null;
  return campaignView(
    record,
    charged,
    note,
    sums.atService,
    campaignWorkFromSums(record, queries.campaignWork(runWorkQuery(record, now)), now),
  );
}

/** A line of the manifest: a row of the campaign, or a video an earlier campaign left in the folder. */
interface ManifestLine {
  campaign: CampaignRecord;
  row: CampaignRowRecord;
}

/**
 * What the folder holds, row by row: the campaign's rows, except that a row of it that made no video
 * (cancelled, failed, not sent yet) is described by the video an earlier campaign saved at its name
 * when that file is there; videos of earlier campaigns at names this one does not use are listed too.
 * So after a second campaign into a folder is cancelled, the manifest still names every video in it.
 */
export function folderLines(
  record: CampaignRecord,
  others: readonly CampaignRecord[],
  onDisk: (path: string) => boolean,
): ManifestLine[] {
  const earlier = new Map<string, ManifestLine>();
  for (const campaign of [...others].sort((a, b) => a.createdAt - b.createdAt)) {
    if (campaign.id === record.id || resolve(campaign.outDir) !== resolve(record.outDir)) continue;
    for (const row of campaign.rows)
      if (row.state === 'done' && onDisk(join(record.outDir, row.fileName)))
        earlier.set(row.fileName, { campaign, row });
  }
  const lines = record.rows.map((row): ManifestLine => {
    const there = row.state === 'done' ? undefined : earlier.get(row.fileName);
    return there ?? { campaign: record, row };
  });
  const named = new Set(record.rows.map((r) => r.fileName));
  for (const line of earlier.values()) if (!named.has(line.row.fileName)) lines.push(line);
  return lines;
}

/**
 * The manifest: one line per row of the spreadsheet, refused rows included, with the row's values (a
 * column per variable, then the columns the page says it keeps for the manifest only, such as an email),
 * its state and why, its file, the result link and when it expires, what it cost (every charge of the
 * row), which campaign made it and, when workers on a queue copied results to a bucket, where each is
 * there (s3://bucket/key). A byte-order mark opens it so Excel reads its accents, and cells
 * cannot become formulas. A template with several formats keeps one line per row, `file` and `link`
 * being the edited format's, and gives each other format a `file_9x16` and `link_9x16` column: a mail
 * merge sends one message per line, so each recipient gets one mail with every format in it.
 */
export function campaignManifestCsv(
  record: CampaignRecord,
  jobs: readonly JobView[],
  lines: readonly ManifestLine[] = record.rows.map((row) => ({ campaign: record, row })),
): string {
  const costs = campaignCosts(
    lines.map((line) => line.campaign),
    jobs,
  );
  const costOf = ({ campaign, row }: ManifestLine) => costs.get(campaign.id)?.get(row.row) ?? '';
  // Each other format of the template: its file and link in columns of its own, on the row's one line.
  const others = campaignFormats(record.template.project).slice(1);
  const own = new Set([
    ...['sheet_row', 'status', 'reason', 'file', 'link', 'expiry', 'cost_credits', 'campaign', 'bucket'],
    ...others.flatMap((f) => [`file_${f.tag}`, `link_${f.tag}`]),
  ]);
  // A sheet's column named like one of the manifest's keeps its values under a name of its own (it lost
  // them to the studio's column before, under a header written twice).
  const columns = [...record.variables, ...(record.kept ?? [])]
    .map((c) => (own.has(c.name) ? { ...c, name: `${c.name} (sheet)` } : c))
    .filter((c, i, all) => all.findIndex((o) => o.name === c.name) === i);
  // Each campaign's formats read once, not at each of its rows (a write covers thousands).
  const formatsOf = new Map<string, CampaignFormat[]>();
  const formatCells = (line: ManifestLine, cells: Record<string, unknown>): void => {
    if (others.length === 0) return;
    const { campaign } = line;
    let formats = formatsOf.get(campaign.id);
    if (!formats) formatsOf.set(campaign.id, (formats = campaignFormats(campaign.template.project)));
    const files = rowFiles(campaign, line.row, formats);
    for (const f of others) {
      const file = files.find((r) => r.format.key === f.key);
      cells[`file_${f.tag}`] = line.row.state === 'done' && file !== undefined ? file.fileName : '';
      cells[`link_${f.tag}`] = file?.url ?? '';
    }
  };
  // Only a campaign whose workers copied results to a bucket has the column: other manifests stay as they were.
  const inBucket = lines.some(({ row }) => typeof row.bucketCopy === 'string');
  const header = [
    'sheet_row',
    ...columns.map((c) => c.name),
    'status',
    'reason',
    'file',
    'link',
    'expiry',
    ...others.flatMap((f) => [`file_${f.tag}`, `link_${f.tag}`]),
    'cost_credits',
    'campaign',
    ...(inBucket ? ['bucket'] : []),
  ];
  const headerKey = JSON.stringify(header);
  // Each line's cells set one by one (a later column of the same name wins, in the header's order): a
  // line built of spread copies cost most of a write of 10,000 rows. A row unchanged since the last
  // write keeps its text (manifest-lines.ts).
  const cellsOf = (line: ManifestLine, cost: number | string) => () => {
    const { row } = line;
    const cells: Record<string, unknown> = { sheet_row: sheetRow(row) };
    for (const c of columns) cells[c.name] = row.values[c.key] ?? '';
    cells.status = row.state;
    cells.reason = row.problems.join(' · ');
    cells.file = row.state === 'done' ? row.fileName : '';
    cells.link = row.resultUrl ?? '';
    cells.expiry = row.expiresAt ? new Date(row.expiresAt).toISOString() : '';
    formatCells(line, cells);
    cells.cost_credits = cost;
    cells.campaign = line.campaign.id;
    cells.bucket = row.state === 'done' ? (row.bucketCopy ?? '') : '';
    return cells;
  };
  const texts = lines.map((line) => {
    const cost = costOf(line);
    const context = { template: line.campaign.template.project, header: headerKey, campaign: line.campaign.id, cost };
    return csvLine(line.row, context, header, cellsOf(line, cost));
  });
  return `\uFEFF${[csvHeader(header), ...texts].join('\r\n')}\r\n`;
}

/** Writes the folder's manifest atomically (a temporary file renamed over it): readers never see half of one. */
export async function writeCampaignManifest(
  record: CampaignRecord,
  jobs: readonly JobView[],
  others: readonly CampaignRecord[] = [],
): Promise<string> {
  const path = join(record.outDir, CAMPAIGN_MANIFEST);
  const lines = folderLines(record, others, (file) => existsSync(file));
  await writeFileAtomic(path, campaignManifestCsv(record, jobs, lines));
  return path;
}
