import { CampaignRowsQuery, type CampaignRowsPage } from '../../common/bridge/campaign-pages';
import { CampaignRowRecord } from '../../common/campaign/record';
import type { RunRowPages } from '../rows/engine/run-store';

/**
 * A page of a campaign's grid read from the database (records/run-row-pages.ts): the window in the
 * campaign's order, all rows or those rowHasProblem keeps, and the counts, with only the window's rows
 * read. `lost`: the result links whose campaign copies are lost, none intact; `charged`: what the service
 * charged each row. Null when the store cannot (a folder an older studio last opened, a campaign still
 * kept as files by an earlier version): the caller cuts the page from the whole campaign
 * (campaignRowsPage, which this answers alike).
 */
export function readCampaignRowsPage(
  pages: RunRowPages,
  id: string,
  raw: CampaignRowsQuery,
  lost: ReadonlySet<string>,
  charged: ReadonlyMap<number, number>,
): Omit<CampaignRowsPage, 'copies'> | null {
  if (pages.own('campaigns', id) === null) return null;
  const query = CampaignRowsQuery.parse(raw);
  const window = pages.campaign(id, {
    offset: query.offset,
    limit: query.limit,
    problems: query.only === 'problems',
    lost: [...lost],
  });
  const rows = window.rows.map((text) => CampaignRowRecord.parse(JSON.parse(text)));
  const charges: Record<string, number> = {};
  for (const { row } of rows) {
    const credits = charged.get(row);
    if (credits !== undefined) charges[String(row)] = credits;
  }
  return { total: window.total, problems: window.problems, lostDone: window.lostDone, rows, charged: charges };
}
