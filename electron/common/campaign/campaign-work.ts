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
  /**
   * Requests a row to come takes (its creates and their polls), as the campaign's ended steps average:
   * its voiceovers and, as often as rows get past them, its videos.
   */
  requestsPerRow: z.number().positive(),
  /**
   * How much of the rows under way is made, in rows: each row's price in requests less what its steps
   * still have to make (two rows half way through are one).
   */
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

/**
 * A kind of step's requests as its ended steps average: those ended lately when there are enough of
 * them, as a step's polls follow how long the service takes now (its queue grows as a long run goes on).
 */
const ENOUGH_RECENT = 20;

class StepTally {
  private all = { steps: 0, requests: 0 };
  private recent = { steps: 0, requests: 0 };
  add(requests: number, lately: boolean): void {
    for (const tally of lately ? [this.all, this.recent] : [this.all]) {
      tally.steps += 1;
      tally.requests += requests;
    }
  }
  mean(): number {
    const tally = this.recent.steps >= ENOUGH_RECENT ? this.recent : this.all;
    return tally.steps ? tally.requests / tally.steps : FIRST_GUESS;
  }
}

type WorkJob = Pick<JobView, 'purpose' | 'polls' | 'finishedAt' | 'createdAt' | 'phase'>;

/** One take of a row as its jobs tell it: the requests of each of its steps, and how its voiceovers ended. */
interface TakeWork {
  voiceovers: number[];
  voiceoversRunning: number[];
  voiceoversFailed: number;
  videos: number[];
  videosRunning: number[];
}

/**
 * The campaign's work from its record and its jobs in the ledger, at `now`. A row to come is priced in
 * requests as its steps average, its video only as often as rows get past their voiceovers: a row whose
 * voiceover fails makes no video. Priced as if every row made every step, a run whose rows failed 14% of
 * the time was said to have 15% more requests left than it then made (its time left 13% too long).
 */
export function campaignWork(
  record: Pick<CampaignRecord, 'id' | 'rows' | 'target' | 'template'>,
  jobs: ReadonlyArray<WorkJob>,
  now: number,
): RunWork {
  const ended: Record<Step, StepTally> = { voiceover: new StepTally(), video: new StepTally() };
  const sent = new Map<number, number>();
  const count = (at: number, requests: number) => {
    if (at <= now - 2 * WORK_WINDOW_MS || at > now) return;
    // Labelled by the second it ends: a request at 120.5 s is in a window from 120 s.
    const second = Math.ceil(at / 1000) * 1000;
    sent.set(second, (sent.get(second) ?? 0) + requests);
  };
  const takes = new Map<string, TakeWork>();
  for (const job of jobs) {
    const purpose = job.purpose;
    if (purpose.type !== 'campaign-row' || purpose.campaignId !== record.id) continue;
    const requests = 1 + job.polls;
    countSent(job, now, count);
    const key = `${purpose.row}:${purpose.take}`;
    const take = takes.get(key) ?? {
      voiceovers: [],
      voiceoversRunning: [],
      voiceoversFailed: 0,
      videos: [],
      videosRunning: [],
    };
    takes.set(key, take);
    const endedAt = job.finishedAt;
    if (purpose.step === 'voiceover') {
      (endedAt === null ? take.voiceoversRunning : take.voiceovers).push(requests);
      if (job.phase === 'failed') take.voiceoversFailed += 1;
    } else (endedAt === null ? take.videosRunning : take.videos).push(requests);
    if (endedAt !== null) ended[purpose.step].add(requests, endedAt > now - 2 * WORK_WINDOW_MS);
  }
  const perStep = (step: Step) => ended[step].mean();
  const shape = stepsOfRow(record);
  const odds = takeOdds([...takes.values()], shape.voiceovers);
  const requestsPerRow = odds.voiceovers * perStep('voiceover') + shape.videos * perStep('video') * odds.pastVoiceovers;
  const per = { voiceover: perStep('voiceover'), video: perStep('video') };
  const left = (take: TakeWork | undefined) => (take ? takeLeft(take, shape, per, odds) : requestsPerRow);
  const made = record.rows
    .filter((r) => !CAMPAIGN_ROW_ENDED.has(r.state) && r.state !== 'held')
    .reduce((sum, r) => sum + requestsPerRow - left(takes.get(`${r.row}:${r.take}`)), 0);
  const recent = [...sent].sort((a, b) => a[0] - b[0]);
  return { requestsPerRow, underWayMade: Math.max(0, made / requestsPerRow), recent };
}

/** What a take is likely to make, as the takes past their voiceovers tell it. */
interface TakeOdds {
  /** Voiceovers a take sends: a row whose first voiceover failed sends no other. */
  voiceovers: number;
  /** The share of takes that get past their voiceovers to their videos (a failed voiceover fails the row). */
  pastVoiceovers: number;
}

/**
 * From the takes whose voiceovers are over (all ended, or one failed), not from rows ended: a row failed
 * at a voiceover ends sooner than a made one, so early in a run the rows ended held too many of them.
 * Before any take's voiceovers are over, every row is taken to make every step.
 */
function takeOdds(takes: readonly TakeWork[], voiceovers: number): TakeOdds {
  const over = takes.filter((t) => t.voiceoversFailed > 0 || t.voiceovers.length >= voiceovers);
  if (voiceovers === 0 || over.length === 0) return { voiceovers, pastVoiceovers: 1 };
  const sent = over.reduce((sum, t) => sum + t.voiceovers.length + t.voiceoversRunning.length, 0);
  return {
    voiceovers: sent / over.length,
    pastVoiceovers: over.filter((t) => t.voiceoversFailed === 0).length / over.length,
  };
}

/** The requests a take under way has still to make: what its running and unsent steps have left, on average. */
function takeLeft(
  take: TakeWork,
  shape: { voiceovers: number; videos: number },
  perStep: Record<Step, number>,
  odds: TakeOdds,
): number {
  const stillSent = (requests: readonly number[], per: number) =>
    requests.reduce((sum, made) => sum + Math.max(0, per - made), 0);
  const voiceoversRunning = stillSent(take.voiceoversRunning, perStep.voiceover);
  if (take.voiceoversFailed > 0) return voiceoversRunning;
  const voiceoversSent = take.voiceovers.length + take.voiceoversRunning.length;
  const voiced = take.voiceovers.length >= shape.voiceovers;
  const videosUnsent = Math.max(0, shape.videos - take.videos.length - take.videosRunning.length);
  // Past its voiceovers, a row makes its videos; before, as often as rows get there.
  const videosLeft =
    stillSent(take.videosRunning, perStep.video) + videosUnsent * perStep.video * (voiced ? 1 : odds.pastVoiceovers);
  if (voiced) return voiceoversRunning + videosLeft;
  return voiceoversRunning + Math.max(0, odds.voiceovers - voiceoversSent) * perStep.voiceover + videosLeft;
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
