import { campaignRowsPage, campaignStatus, type campaignPagesCalls } from '../../common/bridge/campaign-pages';
import type { CampaignView } from '../../common/bridge/campaigns';
import { StudioError } from '../host/errors';
import type { StudioServices } from '../host/studio-types';
import type { DomainModule } from '../host/types';
import { campaignViewFromSums } from './campaign-manifest';
import type { CampaignRows } from './campaign-rows';

/**
 * What the Campaigns page reads as a campaign runs: its status without its rows, and the window of rows
 * its grid shows. Both are cut from the campaign's view on the host (its record is held here already, and
 * its jobs' figures are summed in SQL), so only what the page draws crosses to it.
 */
export function createCampaignPagesDomain(
  { jobs, queries }: Pick<StudioServices, 'jobs' | 'queries'>,
  runner: Pick<CampaignRows, 'get'>,
  now: () => number = Date.now,
): DomainModule<typeof campaignPagesCalls> {
  const view = async (id: string): Promise<CampaignView> => {
    const record = await runner.get(id);
    if (!record) throw new StudioError(`No campaign "${id}"`, 'not-found');
    // The ledger's figures once the engine's writes so far are in it, as campaigns.get reads them.
    await jobs.flush();
    return campaignViewFromSums(record, queries, now());
  };
  return {
    handlers: {
      'campaigns.status': async (id) => campaignStatus(await view(id)),
      'campaigns.rows': async (id, query) => campaignRowsPage(await view(id), query),
    },
  };
}
