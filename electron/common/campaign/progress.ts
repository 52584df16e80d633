import type { CampaignView } from '../bridge/campaigns';
import type { CampaignStatus } from '../bridge/campaign-pages';
import { campaignPace, type CampaignPace } from './pace';
import type { PriceQuote } from '../bridge/jobs';
import { combinedPrice } from '../jobs/cost-model';
import { progressText, runProgress, type RunProgress, type RunTally } from '../jobs/run-progress';
import { describePause, describeUserPause } from '../jobs/run-pause';
import type { CampaignRowState } from './record';

/** A campaign's rows by state as the run's tally: under way is any step after sending began. */
export function campaignTally(counts: Partial<Record<CampaignRowState | string, number>>): RunTally {
  const n = (state: CampaignRowState) => counts[state] ?? 0;
  return {
    done: n('done'),
    failed: n('failed'),
    underWay: n('voiceover') + n('video') + n('download'),
    waiting: n('pending'),
    refused: n('invalid'),
    cancelled: n('cancelled'),
    held: n('held'),
  };
}

/** What a campaign's figures are worked out from: its counts and state, and its pace read off its rows. */
export type CampaignPaced = Pick<CampaignStatus, 'counts' | 'state' | 'createdAt' | 'work' | 'pace'>;

/** A view with its rows, as its status has it: the pace read off its rows (the command line holds them). */
export function pacedView<View extends Pick<CampaignView, 'rows' | 'charged'>>(
  view: View,
): View & { pace: CampaignPace } {
  return { ...view, pace: campaignPace(view.rows, view.charged) };
}

/**
 * A campaign's progress: each done row's finish is when it was saved, the charges are the service's own
 * per row, and the published price of a row (when the caller knows it) stands in until a made row was
 * charged. The pace is of the requests the view's work says its steps made lately (campaignWork); a view
 * without it is measured by its rows' states (stepsMade).
 */
export function campaignProgress(status: CampaignPaced, rowPrice: number | null, now: number): RunProgress {
  const { pace } = status;
  return runProgress(
    {
      tally: campaignTally(status.counts),
      underWayCharged: pace.underWayCharged,
      doneAt: pace.doneAt,
      running: status.state === 'running',
      sendingSince: status.createdAt,
      spent: pace.spent,
      rowCharge: pace.rowCharge,
      rowPrice,
      underWayMade: status.work?.underWayMade ?? pace.underWayMade,
      recentWork: status.work ? { sent: status.work.recent, perRow: status.work.requestsPerRow } : undefined,
    },
    now,
  );
}

/** campaignProgress of a view with its rows. */
export function campaignRunProgress(
  view: Pick<CampaignView, 'rows' | 'counts' | 'state' | 'charged' | 'createdAt' | 'work'>,
  rowPrice: number | null,
  now: number,
): RunProgress {
  return campaignProgress(pacedView(view), rowPrice, now);
}

/** What the Campaigns page and `studio campaign status` both say of a campaign, worked out once. */
export interface CampaignFigures {
  progress: RunProgress;
  running: boolean;
  /** "734 done, 12 under way, … of 5,000 rows · 20 rows/min, about 3 h 50 min left · ≈ 54,900 credits in all (…)". */
  line: string;
  /** The paused campaign's banner, counted now (null: not paused). */
  pause: string | null;
}

/**
 * A campaign's figures for any screen: its progress (pace over the last minutes, time left, projected cost
 * with each credit once) and, paused, its banner with the rows left now and the steps still at the service.
 */
export function campaignFigures(
  view: CampaignPaced & Pick<CampaignStatus, 'pause' | 'atService'>,
  rowPrice: number | null,
  now: number,
): CampaignFigures {
  const progress = campaignProgress(view, rowPrice, now);
  const running = view.state === 'running';
  const live = { rowsLeft: progress.rowsLeft, creditsLeft: progress.creditsLeft, atService: view.atService };
  const pause = view.state !== 'paused' ? null : view.pause ? describePause(view.pause, live) : describeUserPause(live);
  return { progress, running, line: progressText(progress, running), pause };
}

/**
 * One row's price from its quote (campaigns.quoteRow) when every step of it is published; null otherwise.
 * It stands in for the learned price until a made row was charged, on the page and in the terminal alike.
 */
export function quotedRowPrice(quote: Pick<PriceQuote, 'items'>): number | null {
  const price = combinedPrice(
    quote.items.flatMap((item) => Array.from({ length: item.count }, () => item.price)),
    'one row',
  );
  return price.published ? price.credits : null;
}
