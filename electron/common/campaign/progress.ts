import type { CampaignView } from '../bridge/campaigns';
import type { PriceQuote } from '../bridge/jobs';
import { combinedPrice } from '../jobs/cost-model';
import { progressText, runProgress, type RunProgress, type RunTally } from '../jobs/run-progress';
import { describePause, describeUserPause } from '../jobs/run-pause';
import { CAMPAIGN_ROW_UNDER_WAY, type CampaignRowRecord, type CampaignRowState } from './record';

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

/**
 * A campaign's progress read from its view: each done row's finish is when it was saved, the charges
 * are the service's own per row, and the published price of a row (when the caller knows it) stands in
 * until a made row was charged. The pace is of the requests the view's work says its steps made lately (campaignWork);
 * a view without it is measured by its rows' states (stepsMade).
 */
export function campaignRunProgress(
  view: Pick<CampaignView, 'rows' | 'counts' | 'state' | 'charged' | 'createdAt' | 'work'>,
  rowPrice: number | null,
  now: number,
): RunProgress {
  const done = view.rows.filter((r) => r.state === 'done');
  const madeCharges = done.flatMap((r) => {
    const credits = view.charged[String(r.row)];
    return credits === undefined ? [] : [credits];
  });
  const underWay = view.rows.filter((r) => CAMPAIGN_ROW_UNDER_WAY.has(r.state));
  return runProgress(
    {
      tally: campaignTally(view.counts),
      underWayCharged: underWay.flatMap((r) => {
        const credits = view.charged[String(r.row)];
        return credits === undefined ? [] : [credits];
      }),
      doneAt: done.flatMap((r) => (r.savedAt === null ? [] : [r.savedAt])),
      running: view.state === 'running',
      sendingSince: view.createdAt,
      spent: Object.values(view.charged).reduce((sum, credits) => sum + credits, 0),
      rowCharge: madeCharges.length ? madeCharges.reduce((a, b) => a + b, 0) / madeCharges.length : null,
      rowPrice,
      underWayMade: view.work?.underWayMade ?? underWay.reduce((sum, r) => sum + stepsMade(r), 0),
      recentWork: view.work ? { sent: view.work.recent, perRow: view.work.requestsPerRow } : undefined,
    },
    now,
  );
}

/**
 * The share of a row's steps (its voiceovers, its video, its save) ended, as its record tells it: its
 * voiceovers are recorded together once the last ended, so a row still at them counts none of them.
 */
function stepsMade(row: Pick<CampaignRowRecord, 'state' | 'voiceovers'>): number {
  const voiceovers = Object.keys(row.voiceovers).length;
  const steps = voiceovers + 2;
  if (row.state === 'video') return voiceovers / steps;
  if (row.state === 'download') return (voiceovers + 1) / steps;
  return 0;
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
  view: Pick<CampaignView, 'rows' | 'counts' | 'state' | 'charged' | 'createdAt' | 'pause' | 'atService' | 'work'>,
  rowPrice: number | null,
  now: number,
): CampaignFigures {
  const progress = campaignRunProgress(view, rowPrice, now);
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
