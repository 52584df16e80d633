import type { CampaignView } from '../bridge/campaigns';
import { runProgress, type RunProgress, type RunTally } from '../jobs/run-progress';
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

/**
 * A campaign's progress read from its view: each done row's finish is when it was saved, the charges
 * are the service's own per row, and the published price of a row (when the caller knows it) stands in
 * until a made row was charged. The pace is measured from the campaign's start.
 */
export function campaignRunProgress(
  view: Pick<CampaignView, 'rows' | 'counts' | 'state' | 'charged' | 'createdAt'>,
  rowPrice: number | null,
  now: number,
): RunProgress {
  const done = view.rows.filter((r) => r.state === 'done');
  const madeCharges = done.flatMap((r) => {
    const credits = view.charged[String(r.row)];
    return credits === undefined ? [] : [credits];
  });
  return runProgress(
    {
      tally: campaignTally(view.counts),
      doneAt: done.flatMap((r) => (r.savedAt === null ? [] : [r.savedAt])),
      running: view.state === 'running',
      sendingSince: view.createdAt,
      spent: Object.values(view.charged).reduce((sum, credits) => sum + credits, 0),
      rowCharge: madeCharges.length ? madeCharges.reduce((a, b) => a + b, 0) / madeCharges.length : null,
      rowPrice,
    },
    now,
  );
}
