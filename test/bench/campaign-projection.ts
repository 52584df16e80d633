// What a marketer plans with, checked against what happened: once a share of a campaign's rows is done,
// the figures the page shows (time left at the recent pace, the projected cost with each credit counted
// once) are taken; when the run has ended they are set against the time it really took and what it really
// cost. The same arithmetic as the Campaigns page and `campaign status` (campaignRunProgress).
import type { JobView } from '../../electron/common/bridge/jobs';
import { campaignRunProgress } from '../../electron/common/campaign/progress';
import type { CampaignRecord } from '../../electron/common/campaign/record';
import { campaignViewFromLedger, rowCosts } from '../../electron/services/campaign/campaign-manifest';

export interface Projection {
  /** Share of the planned rows done when the figures were taken. */
  atShare: number;
  takenAt: number;
  msLeft: number | null;
  credits: number | null;
}

export interface ProjectionError {
  line: string;
  timeError: number | null;
  costError: number | null;
}

/** Looks at the campaign every `everyMs` until `share` of its rows are done, then keeps the page's figures. */
export function watchProjection(
  read: () => Promise<{ record: CampaignRecord | null; jobs: readonly JobView[] }>,
  share: number,
  everyMs = 1_000,
): { stop(): Promise<Projection | null> } {
  let taken: Projection | null = null;
  let stopped = false;
  // BENCH_TRACE: every look's figures to stderr, until the run ends (how the pace moves through a run).
  const trace = Boolean(process.env.BENCH_TRACE);
  const startedAt = Date.now();
  const looking = (async () => {
    while (!stopped && (!taken || trace)) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      const { record, jobs } = await read();
      if (!record) continue;
      const now = Date.now();
      const view = campaignViewFromLedger(record, jobs, now);
      const progress = campaignRunProgress(view, null, now);
      if (trace) console.error(traceLine(now - startedAt, progress));
      if (taken) continue;
      if (progress.planned === 0 || progress.tally.done / progress.planned < share) continue;
      taken = {
        atShare: progress.tally.done / progress.planned,
        takenAt: now,
        msLeft: progress.msLeft,
        credits: progress.projected?.credits ?? null,
      };
    }
  })();
  return {
    async stop() {
      stopped = true;
      await looking;
      return taken;
    },
  };
}

/** The figures taken against the run's end: its real time left and its real cost (the charges of its rows). */
export function projectionError(
  taken: Projection | null,
  endedAt: number,
  record: CampaignRecord,
  jobs: readonly JobView[],
): ProjectionError {
  if (!taken) return { line: 'projection: never taken (too few rows done)', timeError: null, costError: null };
  const actualMs = endedAt - taken.takenAt;
  const actualCredits = [...rowCosts(record, jobs).values()].reduce<number>((sum, c) => sum + (c ?? 0), 0);
  const error = (predicted: number | null, actual: number) =>
    predicted === null || actual <= 0 ? null : Math.abs(predicted - actual) / actual;
  const timeError = error(taken.msLeft, actualMs);
  const costError = error(taken.credits, actualCredits);
  const pct = (e: number | null) => (e === null ? 'not known' : `${(e * 100).toFixed(1)}%`);
  const aim = (e: number | null) => (e !== null && e <= 0.15 ? 'met' : 'NOT met');
  const line =
    `projection at ${(taken.atShare * 100).toFixed(0)}% of rows done: time left ${taken.msLeft === null ? '?' : (taken.msLeft / 1000).toFixed(0)} s, ` +
    `then took ${(actualMs / 1000).toFixed(0)} s (error ${pct(timeError)}, aim at most 15%: ${aim(timeError)}); ` +
    `cost ${taken.credits === null ? '?' : taken.credits.toFixed(0)} credits, then ${actualCredits.toFixed(0)} (error ${pct(costError)}, aim at most 15%: ${aim(costError)})`;
  return { line, timeError, costError };
}

function traceLine(ms: number, p: ReturnType<typeof campaignRunProgress>): string {
  const t = p.tally;
  const left = p.msLeft === null ? '?' : (p.msLeft / 1000).toFixed(0);
  const pace = p.perMinute === null ? '?' : p.perMinute.toFixed(0);
  return `trace ${(ms / 1000).toFixed(0)} s: done ${t.done} failed ${t.failed} under way ${t.underWay} waiting ${t.waiting} · ${pace} rows/min, ${left} s left`;
}
