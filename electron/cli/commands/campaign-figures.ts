import type { CampaignStatus } from '../../common/bridge/campaign-pages';
import { campaignFigures, quotedRowPrice } from '../../common/campaign/progress';
import type { StudioLink } from '../studio-link';
import { runLine } from './progress-bars';

/**
 * The lines of `studio campaign status` that carry the Campaigns page's figures, worked out by the same
 * function from the same status (`campaigns.status`: what the service charged included): the bar, the
 * pace over the last minutes and the time left, the projected cost, a paused campaign's banner counted
 * now, and the balance line.
 */
export async function campaignFigureLines(studio: StudioLink, status: CampaignStatus, now: number): Promise<string[]> {
  const figures = campaignFigures(status, await rowPrice(studio, status), now);
  return [runLine(figures.progress, figures.running), figures.pause, status.balanceNote].filter(
    (line): line is string => !!line,
  );
}

/**
 * One row's published price, as the page asks it, while no made row was charged (after that the
 * learned price stands and nothing is asked); null when it is not published or cannot be read.
 */
async function rowPrice(studio: StudioLink, status: CampaignStatus): Promise<number | null> {
  if (status.pace.rowCharge !== null || status.sentRow === null) return null;
  return studio.call('campaigns.quoteRow', status.id, status.sentRow).then(quotedRowPrice, () => null);
}
