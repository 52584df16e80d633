import { campaignRowsPage, campaignStatus, type campaignPagesCalls } from '../../common/bridge/campaign-pages';
import type { CampaignRecord } from '../../common/campaign/record';
import { rowCopies } from '../../common/campaign/row-copy';
import type { DownloadView } from '../../common/bridge/downloads';
import { StudioError } from '../host/errors';
import type { StudioServices } from '../host/studio-types';
import type { DomainModule } from '../host/types';
import { campaignViewFromSums } from './campaign-manifest';
import type { CampaignRows } from './campaign-rows';

/** The record of copies as a campaign's grid asks it: by the rows' links, never every copy. */
export interface CampaignCopies {
  /** The result links whose campaign copies are lost (missing or changed on disk) with none intact. */
  lostLinks(): Promise<ReadonlySet<string>>;
  /** Every entry of these links (a page of rows'). */
  ofLinks(urls: readonly string[]): Promise<DownloadView[]>;
}

/**
 * What the Campaigns page reads as a campaign runs: its status without its rows, and the window of rows
 * its grid shows. Both are cut from the campaign's view on the host (its record is held here already, and
 * its jobs' figures are summed in SQL), so only what the page draws crosses to it.
 */
export function createCampaignPagesDomain(
  { jobs, queries }: Pick<StudioServices, 'jobs' | 'queries'>,
  runner: Pick<CampaignRows, 'get'>,
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
      'campaigns.rows': async (id, query) => {
        const { rows } = await recordOf(id);
        const { chargedByRow } = queries.runSums({ runId: id, purposeType: 'campaign-row' });
        const page = campaignRowsPage(
          { rows, charged: Object.fromEntries(chargedByRow) },
          query,
          await copies.lostLinks(),
        );
        const links = page.rows.flatMap((r) => (r.state === 'done' && r.resultUrl ? [r.resultUrl] : []));
        return { ...page, copies: rowCopies(page.rows, links.length > 0 ? await copies.ofLinks(links) : []) };
      },
    },
  };
}
