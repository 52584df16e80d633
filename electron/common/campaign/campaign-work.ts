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

/** Enough steps ended in the window for their mean to be the pace's (else every ended step's). */
const ENOUGH_RECENT = 20;

type WorkJob = Pick<JobView, 'purpose' | 'polls' | 'finishedAt' | 'createdAt' | 'phase'>;

/** A step's count and its requests (its create and its polls). */
export interface Tally {
  steps: number;
  requests: number;
}

/** One take of a row as its jobs tell it: its ended steps, the requests of those running, its failed voiceovers. */
export interface TakeWork {
  voiceoversEnded: number;
  voiceoversRunning: number[];
  voiceoversFailed: number;
  videosEnded: number;
  videosRunning: number[];
}

/** What a campaign's pace is read from: the ask (runWorkQuery) that workSums or the database answers. */
export interface RunWorkQuery {
  campaignId: string;
  /** Steps ended and requests sent after this are in the pace's window (twice WORK_WINDOW_MS before now). */
  windowFrom: number;
  /** The voiceovers a take of the template sends: a take's voiceovers are over once so many ended. */
  voiceovers: number;
  /** The rows under way and the take each is on: only their takes are read step by step. */
  underWay: { row: number; take: number }[];
}

/**
 * A campaign's jobs as its pace needs them: sums over every job, and job by job only the few whose
 * requests may fall in the window or whose take is under way. The status the command's progress line
 * asks for every 5 s read each job of the run into the host's thread, one by one, to work its pace out
 * (55 ms at 10,000 rows, and growing with the run); the database sums them where they are kept
 * (records/run-job-sums.ts) in half that, and hands over only the window's jobs and the rows' under way.
 */
export interface RunWorkSums {
  /** Ended steps of each kind: all of them, and those ended in the window. */
  ended: Record<Step, { all: Tally; recent: Tally }>;
  /** The takes whose voiceovers are over (all ended, or one failed): how many, their voiceovers, and how many failed none. */
  over: { takes: number; voiceovers: number; pastVoiceovers: number };
  /** The takes of the rows under way that have a job, by `row:take`. */
  takes: Map<string, TakeWork>;
  /** The jobs still running or created or ended in the window: those whose requests may have left in it. */
  live: Pick<WorkJob, 'polls' | 'finishedAt' | 'createdAt'>[];
}

/** The key of a take in RunWorkSums.takes. */
export const takeKey = (row: number, take: number): string => `${row}:${take}`;

/** A take of which no step is known yet. */
export const noTakeWork = (): TakeWork => ({
  voiceoversEnded: 0,
  voiceoversRunning: [],
  voiceoversFailed: 0,
  videosEnded: 0,
  videosRunning: [],
});

/** No step ended yet, of either kind. */
export const noStepsEnded = (): RunWorkSums['ended'] => ({
  voiceover: { all: { steps: 0, requests: 0 }, recent: { steps: 0, requests: 0 } },
  video: { all: { steps: 0, requests: 0 }, recent: { steps: 0, requests: 0 } },
});

const stepOf = (step: string | undefined): Step => (step === 'voiceover' ? 'voiceover' : 'video');

/** The rows whose work is partly made or still to come: not ended, and not held for their user. */
const rowsUnderWay = (record: Pick<CampaignRecord, 'rows'>) =>
  record.rows.filter((r) => !CAMPAIGN_ROW_ENDED.has(r.state) && r.state !== 'held');

/** The ask for a campaign's pace at `now`: its window, its template's voiceovers, its rows under way. */
export function runWorkQuery(
  record: Pick<CampaignRecord, 'id' | 'rows' | 'target' | 'template'>,
  now: number,
): RunWorkQuery {
  return {
    campaignId: record.id,
    windowFrom: now - 2 * WORK_WINDOW_MS,
    voiceovers: stepsOfRow(record).voiceovers,
    underWay: rowsUnderWay(record).map((r) => ({ row: r.row, take: r.take })),
  };
}

/** The sums of RunWorkSums over jobs held in memory (the database sums the same in run-job-sums.ts). */
export function workSums(jobs: ReadonlyArray<WorkJob>, query: RunWorkQuery): RunWorkSums {
  const ended = noStepsEnded();
  const live: RunWorkSums['live'] = [];
  const takes = new Map<string, TakeWork>();
  for (const job of jobs) {
    const purpose = job.purpose;
    if (purpose.type !== 'campaign-row' || purpose.campaignId !== query.campaignId) continue;
    const requests = 1 + job.polls;
    const { finishedAt, createdAt } = job;
    if (finishedAt === null || finishedAt > query.windowFrom || createdAt > query.windowFrom) live.push(job);
    const key = takeKey(purpose.row, purpose.take ?? 0);
    const take = takes.get(key) ?? noTakeWork();
    takes.set(key, take);
    const step = stepOf(purpose.step);
    if (finishedAt === null) (step === 'voiceover' ? take.voiceoversRunning : take.videosRunning).push(requests);
    else {
      if (step === 'voiceover') take.voiceoversEnded += 1;
      else take.videosEnded += 1;
      for (const tally of finishedAt > query.windowFrom ? [ended[step].all, ended[step].recent] : [ended[step].all]) {
        tally.steps += 1;
        tally.requests += requests;
      }
    }
    if (step === 'voiceover' && job.phase === 'failed') take.voiceoversFailed += 1;
  }
  const over = [...takes.values()].filter((t) => t.voiceoversFailed > 0 || t.voiceoversEnded >= query.voiceovers);
  const underWay = new Set(query.underWay.map((r) => takeKey(r.row, r.take)));
  return {
    ended,
    over: {
      takes: over.length,
      voiceovers: over.reduce((sum, t) => sum + t.voiceoversEnded + t.voiceoversRunning.length, 0),
      pastVoiceovers: over.filter((t) => t.voiceoversFailed === 0).length,
    },
    takes: new Map([...takes].filter(([key]) => underWay.has(key))),
    live,
  };
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
  return campaignWorkFromSums(record, workSums(jobs, runWorkQuery(record, now)), now);
}

/** The same work from its sums, however they were read (workSums, or the database's). */
export function campaignWorkFromSums(
  record: Pick<CampaignRecord, 'rows' | 'target' | 'template'>,
  sums: RunWorkSums,
  now: number,
): RunWork {
  const sent = new Map<number, number>();
  const count = (at: number, requests: number) => {
    if (at <= now - 2 * WORK_WINDOW_MS || at > now) return;
    // Labelled by the second it ends: a request at 120.5 s is in a window from 120 s.
    const second = Math.ceil(at / 1000) * 1000;
    sent.set(second, (sent.get(second) ?? 0) + requests);
  };
  for (const job of sums.live) countSent(job, now, count);
  const perStep = (step: Step) => stepMean(sums.ended[step]);
  const shape = stepsOfRow(record);
  const odds = takeOdds(sums.over, shape.voiceovers);
  const requestsPerRow = odds.voiceovers * perStep('voiceover') + shape.videos * perStep('video') * odds.pastVoiceovers;
  const per = { voiceover: perStep('voiceover'), video: perStep('video') };
  const left = (take: TakeWork | undefined) => (take ? takeLeft(take, shape, per, odds) : requestsPerRow);
  const made = rowsUnderWay(record).reduce(
    (sum, r) => sum + requestsPerRow - left(sums.takes.get(takeKey(r.row, r.take))),
    0,
  );
  const recent = [...sent].sort((a, b) => a[0] - b[0]);
  return { requestsPerRow, underWayMade: Math.max(0, made / requestsPerRow), recent };
}

/**
 * A kind of step's requests as its ended steps average: those ended lately when there are enough of
 * them, as a step's polls follow how long the service takes now (its queue grows as a long run goes on).
 */
function stepMean({ all, recent }: { all: Tally; recent: Tally }): number {
  const tally = recent.steps >= ENOUGH_RECENT ? recent : all;
  return tally.steps ? tally.requests / tally.steps : FIRST_GUESS;
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
function takeOdds(over: RunWorkSums['over'], voiceovers: number): TakeOdds {
  if (voiceovers === 0 || over.takes === 0) return { voiceovers, pastVoiceovers: 1 };
  return { voiceovers: over.voiceovers / over.takes, pastVoiceovers: over.pastVoiceovers / over.takes };
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
  const voiceoversSent = take.voiceoversEnded + take.voiceoversRunning.length;
  const voiced = take.voiceoversEnded >= shape.voiceovers;
  const videosUnsent = Math.max(0, shape.videos - take.videosEnded - take.videosRunning.length);
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
