import { z } from 'zod';
import { CampaignPace, campaignPace } from '../campaign/pace';
import { CampaignRowRecord } from '../campaign/record';
import { retriedWithTheFailed } from '../campaign/row-review';
import { rowHasProblem } from '../campaign/row-problem';
import { CampaignView } from './campaigns';
import { LostCopy } from './downloads';
import { COPY_STATES } from './download-words';
import { call } from './contract';

/**
 * A campaign as its page follows it: its view without its rows, which the page reads a page at a time
 * (campaigns.rows). A campaign of 5,000 rows changes several times a second while it runs; its every
 * row sent at each change held the page's main thread for most of a second.
 */
export const CampaignStatus = CampaignView.omit({ rows: true, charged: true }).extend({
  pace: CampaignPace,
  /** A row that is sent (not refused by the check): its price is every row's (null: none is). */
  sentRow: z.number().int().nullable(),
  /** The failed rows "Retry all failed" makes again (retriedWithTheFailed): not those waiting for review. */
  retriable: z.number().int(),
});
export type CampaignStatus = z.infer<typeof CampaignStatus>;

/** The rows a page of the grid asks for: a window of the rows in the campaign's order, all or those with a problem. */
export const CampaignRowsQuery = z.object({
  offset: z.number().int().nonnegative().max(100_000),
  limit: z.number().int().nonnegative().max(500),
  only: z.enum(['all', 'problems']).default('all'),
});
export type CampaignRowsQuery = z.input<typeof CampaignRowsQuery>;

export const CampaignRowsPage = z.object({
  /** Rows the query's filter keeps, in all. */
  total: z.number().int(),
  /** Rows with a problem in all (the filter's count). */
  problems: z.number().int(),
  /** Done rows whose saved copy is lost (missing or changed on disk, and no intact one), as the record of copies has it. */
  lostDone: z.number().int(),
  rows: z.array(CampaignRowRecord),
  /**
   * The file of each done row of the page (by row, 0-based, as text), as the record of copies has it,
   * and its lost copy to fetch back where there is one: the host looks the page's links up, so the page
   * holds no campaign's copies.
   */
  copies: z.record(z.string(), z.object({ state: z.enum(COPY_STATES), lost: LostCopy.nullable() })),
  /** What the service charged each of these rows (by row, 0-based, as text); a row it has not charged is absent. */
  charged: z.record(z.string(), z.number()),
});
export type CampaignRowsPage = z.infer<typeof CampaignRowsPage>;

/** A view's status: its figures, its pace read off its rows, and no rows. */
export function campaignStatus(view: CampaignView): CampaignStatus {
  const { rows, charged, ...rest } = view;
  return {
    ...rest,
    pace: campaignPace(rows, charged),
    sentRow: rows.find((r) => r.state !== 'invalid')?.row ?? null,
    retriable: rows.filter((r) => retriedWithTheFailed(r)).length,
  };
}

/**
 * A page of a view's rows, filtered as the page asks; `lost` holds the campaigns' result links whose
 * copies are lost. The page's `copies` are the caller's to look up (campaignRowCopies).
 */
export function campaignRowsPage(
  view: Pick<CampaignView, 'rows' | 'charged'>,
  raw: CampaignRowsQuery,
  lost: ReadonlySet<string>,
): Omit<CampaignRowsPage, 'copies'> {
  const query = CampaignRowsQuery.parse(raw);
  const isLost = (r: CampaignRowRecord) => r.state === 'done' && r.resultUrl !== null && lost.has(r.resultUrl);
  const problem = (r: CampaignRowRecord) => rowHasProblem(r, isLost(r) ? 'missing' : null);
  const problems = view.rows.filter(problem);
  const kept = query.only === 'problems' ? problems : view.rows;
  const rows = kept.slice(query.offset, query.offset + query.limit);
  const charged: Record<string, number> = {};
  for (const r of rows) {
    const credits = view.charged[String(r.row)];
    if (credits !== undefined) charged[String(r.row)] = credits;
  }
  return {
    total: kept.length,
    problems: problems.length,
    lostDone: lost.size === 0 ? 0 : view.rows.filter(isLost).length,
    rows,
    charged,
  };
}

const id = z.string().min(1).max(200);

export const campaignPagesCalls = {
  /** The campaign's figures, pace and state without its rows: what the page reads at each change. */
  'campaigns.status': call(z.tuple([id]), CampaignStatus),
  /** A window of the campaign's rows (the grid's page in view), all or those with a problem, with their charges. */
  'campaigns.rows': call(z.tuple([id, CampaignRowsQuery]), CampaignRowsPage),
};
