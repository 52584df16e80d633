import type { CampaignView } from '../../common/bridge/campaigns';
import { campaignFigures, pacedView, quotedRowPrice } from '../../common/campaign/progress';
import type { StudioLink } from '../studio-link';
import { runLine } from './progress-bars';

/**
 * The lines of `studio campaign status` that carry the Campaigns page's figures, worked out by the same
 * function from the same view: the bar, the pace over the last minutes and the time left, the projected
 * cost, a paused campaign's banner counted now, and the balance line.
 */
export async function campaignFigureLines(studio: StudioLink, view: CampaignView, now: number): Promise<string[]> {
  const figures = campaignFigures(pacedView(view), await rowPrice(studio, view), now);
  return [runLine(figures.progress, figures.running), figures.pause, view.balanceNote].filter(
    (line): line is string => !!line,
  );
}

/**
 * One row's published price, as the page asks it, while no made row was charged (after that the
 * learned price stands and nothing is asked); null when it is not published or cannot be read.
 */
async function rowPrice(studio: StudioLink, view: CampaignView): Promise<number | null> {
  const made = view.rows.some((r) => r.state === 'done' && view.charged[String(r.row)] !== undefined);
  const sent = view.rows.find((r) => r.state !== 'invalid');
  if (made || !sent) return null;
  return studio.call('campaigns.quoteRow', view.id, sent.row).then(quotedRowPrice, () => null);
}
