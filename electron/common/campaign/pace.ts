import { z } from 'zod';
import { CAMPAIGN_ROW_UNDER_WAY, type CampaignRowRecord } from './record';

/**
 * What a campaign's pace and projected cost are reckoned from, read off its rows once by whoever holds
 * them (the host): so a page follows a campaign of 5,000 rows without being sent its rows.
 */
export const CampaignPace = z.object({
  /** When each done row was saved (ms since the epoch). */
  doneAt: z.array(z.number()),
  /** What a made row was charged on average; null before a made row was charged. */
  rowCharge: z.number().nullable(),
  /** What each row under way has been charged so far (only the rows charged something). */
  underWayCharged: z.array(z.number()),
  /** The rows under way's steps ended, in rows (stepsMade), for a view without its work. */
  underWayMade: z.number(),
  /** Credits charged so far for the campaign's rows, made or not. */
  spent: z.number(),
});
export type CampaignPace = z.infer<typeof CampaignPace>;

/** The pace's figures from a campaign's rows and what each was charged (by row, 0-based, as text). */
export function campaignPace(
  rows: readonly CampaignRowRecord[],
  charged: Readonly<Record<string, number>>,
): CampaignPace {
  const doneAt: number[] = [];
  const madeCharges: number[] = [];
  const underWayCharged: number[] = [];
  let underWayMade = 0;
  for (const row of rows) {
    const credits = charged[String(row.row)];
    if (row.state === 'done') {
      if (row.savedAt !== null) doneAt.push(row.savedAt);
      if (credits !== undefined) madeCharges.push(credits);
    } else if (CAMPAIGN_ROW_UNDER_WAY.has(row.state)) {
      if (credits !== undefined) underWayCharged.push(credits);
      underWayMade += stepsMade(row);
    }
  }
  return {
    doneAt,
    rowCharge: madeCharges.length ? madeCharges.reduce((a, b) => a + b, 0) / madeCharges.length : null,
    underWayCharged,
    underWayMade,
    spent: Object.values(charged).reduce((sum, credits) => sum + credits, 0),
  };
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
