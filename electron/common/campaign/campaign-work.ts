import { z } from 'zod';
import type { JobView } from '../bridge/jobs';
import { WORK_WINDOW_MS } from '../jobs/run-progress';
import { campaignFormats } from './campaign-formats';
import { CAMPAIGN_ROW_ENDED, type CampaignRecord } from './record';

/**
 * How far a campaign's work has gone, counted in requests to the service: the account's request rate is
 * what bounds a campaign's speed (each step is a create and its polls; a save asks the service nothing).
 * Done rows are a poor measure of it: rows are admitted in waves (the bound on rows under way follows
 * rows ended, which come in bursts), so 30% of a 1,000-row run took 193 s and the rest 56 s, and a pace
 * of done rows taken at 30% said twice the time that was left. Counting steps alike was no better (a
 * row waiting only for its save counted a quarter unmade).
 */
export const RunWork = z.object({
  /** Requests a whole row takes (its creates and their polls), as the campaign's ended steps average. */
  requestsPerRow: z.number().positive(),
  /** The requests the rows under way have made, in rows (two rows half way through are one). */
  underWayMade: z.number().nonnegative(),
  /**
   * The requests sent lately, a second at a time ([the second's end, requests]): twice the pace's window
   * before the view was made, so a page that works its figures out a little later still has its whole
   * window. Each is counted when it left (a create when it was sent, a poll spread over its job's life),
   * not when its step ended: a video's create and polls counted at its end came 15 s late, so in the
   * first minutes, while the run's pace rose, the pace read low and the time left 18-25% long.
   */
  recent: z.array(z.tuple([z.number(), z.number().nonnegative()])),
});
export type RunWork = z.infer<typeof RunWork>;

/** Before any of its steps ended, a step is taken to be its create and one poll. */
const FIRST_GUESS = 2;

type Step = 'voiceover' | 'video';

/** The campaign's work from its record and its jobs in the ledger, at `now`. */
export function campaignWork(
  record: Pick<CampaignRecord, 'id' | 'rows' | 'target' | 'template'>,
  jobs: ReadonlyArray<Pick<JobView, 'purpose' | 'polls' | 'finishedAt' | 'createdAt'>>,
  now: number,
): RunWork {
  const ended: Record<Step, { steps: number; requests: number }> = {
    voiceover: { steps: 0, requests: 0 },
    video: { steps: 0, requests: 0 },
  };
  const sent = new Map<number, number>();
  const count = (at: number, requests: number) => {
    if (at <= now - 2 * WORK_WINDOW_MS || at > now) return;
    // Labelled by the second it ends: a request at 120.5 s is in a window from 120 s.
    const second = Math.ceil(at / 1000) * 1000;
    sent.set(second, (sent.get(second) ?? 0) + requests);
  };
  const spent = new Map(
    record.rows
      .filter((r) => !CAMPAIGN_ROW_ENDED.has(r.state) && r.state !== 'held')
      .map((r) => [r.row, { take: r.take, requests: 0 }]),
  );
  for (const job of jobs) {
    const purpose = job.purpose;
    if (purpose.type !== 'campaign-row' || purpose.campaignId !== record.id) continue;
    const requests = 1 + job.polls;
    const row = spent.get(purpose.row);
    // Only the row's own take made what is left of it: an earlier take's steps are made again.
    if (row && purpose.take === row.take) row.requests += requests;
    countSent(job, now, count);
    if (job.finishedAt === null) continue;
    ended[purpose.step].steps += 1;
    ended[purpose.step].requests += requests;
  }
  const perStep = (step: Step) => (ended[step].steps ? ended[step].requests / ended[step].steps : FIRST_GUESS);
  const { voiceovers, videos } = stepsOfRow(record);
  const requestsPerRow = voiceovers * perStep('voiceover') + videos * perStep('video');
  const made = [...spent.values()].reduce((sum, r) => sum + Math.min(r.requests, requestsPerRow), 0);
  const recent = [...sent].sort((a, b) => a[0] - b[0]);
  return { requestsPerRow, underWayMade: made / requestsPerRow, recent };
}

/**
 * A job's requests about when they left: its create when made, its polls evenly up to its end (the poll
 * that saw it), or up to now while it runs. The ledger keeps a count of polls, not their times.
 */
function countSent(
  job: Pick<JobView, 'polls' | 'finishedAt' | 'createdAt'>,
  now: number,
  count: (at: number, requests: number) => void,
): void {
  count(job.createdAt, 1);
  const last = job.finishedAt ?? now;
  for (let poll = 1; poll <= job.polls; poll += 1)
    count(job.createdAt + ((last - job.createdAt) * poll) / job.polls, 1);
}

/** The paid steps one row of the campaign makes: each voiceover its template asks for, each format's video. */
function stepsOfRow(record: Pick<CampaignRecord, 'target' | 'template'>): { voiceovers: number; videos: number } {
  const project = record.template.project;
  const voiceovers =
    record.target === 'avatar-video'
      ? project.scenes.filter((scene) => scene.voice?.kind === 'tts' && !scene.voice.audioUrl).length
      : 0;
  return { voiceovers, videos: campaignFormats(project).length };
}
