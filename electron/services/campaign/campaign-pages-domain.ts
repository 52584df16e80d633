import { campaignRowsPage, campaignStatus, type campaignPagesCalls } from '../../common/bridge/campaign-pages';
import type { CampaignRecord } from '../../common/campaign/record';
import { rowCopies } from '../../common/campaign/row-copy';
import type { DownloadView } from '../../common/bridge/downloads';
import { StudioError } from '../host/errors';
import type { StudioServices } from '../host/studio-types';
import type { DomainModule } from '../host/types';
import { campaignViewFromSums } from './campaign-manifest';
import type { CampaignRows } from './campaign-rows';
import { readCampaignRowsPage } from './campaign-rows-page';

/** The record of copies as a campaign's grid asks it: by the rows' links, never every copy. */
export interface CampaignCopies {
  /** The result links whose campaign copies are lost (missing or changed on disk) with none intact. */
  lostLinks(): Promise<ReadonlySet<string>>;
  /** Every entry of these links (a page of rows'). */
  ofLinks(urls: readonly string[]): Promise<DownloadView[]>;
}

/**
 * What the Campaigns page reads as a campaign runs: its status without its rows, and the window of rows
 * its grid shows. The status is cut from the campaign's view on the host (its jobs' figures summed in
 * SQL); the window is read from the database with its counts (campaign-rows-page.ts), so neither the
 * host nor the page holds the campaign's every row for it.
 */
export function createCampaignPagesDomain(
  { jobs, queries }: Pick<StudioServices, 'jobs' | 'queries'>,
  runner: Pick<CampaignRows, 'get'> & Partial<Pick<CampaignRows, 'pages'>>,
  copies: CampaignCopies,
  now: () => number = Date.now,
): DomainModule<typeof campaignPagesCalls> {
  /** The campaign, once the engine's writes so far are in the ledger (its figures are read there). */
  const recordOf = async (id: string): Promise<CampaignRecord> => {
    const record = await runner.get(id);
    if (!record) throw new StudioError(`No campaign "${id}"`, 'not-found');
    await jobs.flush();
    return record;
  };
  return {
    handlers: {
      'campaigns.status': async (id) => campaignStatus(campaignViewFromSums(await recordOf(id), queries, now())),
      // A page of rows needs their charges alone: not the pace, whose work reads every job of the campaign.
      // The window is read from the database; a store that cannot has it cut from the campaign read whole.
      'campaigns.rows': async (id, query) => {
        const pages = (await runner.pages?.()) ?? null;
        await jobs.flush();
        const lost = await copies.lostLinks();
        const { chargedByRow } = queries.runSums({ runId: id, purposeType: 'campaign-row' });
        const page =
          (pages && readCampaignRowsPage(pages, id, query, lost, chargedByRow)) ??
          campaignRowsPage({ rows: (await recordOf(id)).rows, charged: Object.fromEntries(chargedByRow) }, query, lost);
        const links = page.rows.flatMap((r) => (r.state === 'done' && r.resultUrl ? [r.resultUrl] : []));
        return { ...page, copies: rowCopies(page.rows, links.length > 0 ? await copies.ofLinks(links) : []) };
      },
    },
  };
}
