import type { RunFigures } from '../../common/jobs/run-balance';
import type { RunAtService } from '../../common/jobs/run-at-service';
import {
  noStepsEnded,
  noTakeWork,
  takeKey,
  type RunWorkQuery,
  type RunWorkSums,
  type TakeWork,
} from '../../common/campaign/campaign-work';
import type { RunJobSums, RunJobSumsQuery } from '../jobs/run-sums';
import type { Sqlite } from './database';

/**
 * The figures of run-sums.ts from the columns step 2 of schema.ts keeps beside each record (cost_state
 * and cost_credits say what totalCost() says) and those step 10 keeps for a run's jobs (their row, step,
 * take and polls), so every question reads an index alone, never a record's JSON.
 */

/** The charge, else the estimate (what runAtService and runFigures call a job's figure); null: none known. */
const FIGURE = `CASE WHEN cost_state IN ('charged', 'charged-estimate', 'estimated') THEN cost_credits END`;
const CHARGED = `cost_state IN ('charged', 'charged-estimate')`;
const OF_RUN = 'run_id = ? AND purpose_type = ?';

export const CHARGED_BY_ROW = `SELECT purpose_row AS row, sum(cost_credits) AS credits
  FROM jobs WHERE ${OF_RUN} AND ${CHARGED} GROUP BY 1`;
export const AT_SERVICE = `SELECT count(*) AS steps, total(${FIGURE}) AS credits,
    count(*) - count(${FIGURE}) AS unknown, total(CASE WHEN ${CHARGED} THEN cost_credits END) AS charged
  FROM jobs WHERE ${OF_RUN} AND phase IN ('submitting', 'queued', 'processing')`;
export const STEPS = `SELECT coalesce(purpose_step, '') AS step, phase, count(*) AS jobs
  FROM jobs WHERE ${OF_RUN} GROUP BY 1, 2`;
/** A job's figure as runFigures takes it: a job of unknown outcome has its charge, never its price. */
const RUN_FIGURE = `CASE WHEN ${CHARGED} OR (cost_state = 'estimated' AND phase <> 'outcome-unknown') THEN cost_credits END`;
/** Refused jobs (made nothing, charged nothing) are left out, as runFigures leaves them. */
export const FIGURES = `SELECT
    total(CASE WHEN created_at <= ?3 THEN ${RUN_FIGURE} END) AS credits,
    count(CASE WHEN created_at <= ?3 AND ${RUN_FIGURE} IS NULL THEN 1 END) AS unknown,
    total(CASE WHEN created_at > ?3 THEN ${RUN_FIGURE} END) AS later
  FROM jobs WHERE run_id = ?1 AND purpose_type = ?2 AND created_at >= ?4 AND cost_state <> 'refused'`;

/** Read from the expiry index: only the jobs whose results expire in the window are looked at. */
export const RUNS_EXPIRING = `SELECT DISTINCT run_id FROM jobs INDEXED BY jobs_by_expiry
  WHERE expires_at > ? AND expires_at <= ? AND purpose_type = ? AND run_id IS NOT NULL`;

const round = (credits: number) => Math.round(credits * 100) / 100;

/** The run's figures in four short statements over its jobs' index entries. */
export function runJobSums(db: Sqlite, query: RunJobSumsQuery): RunJobSums {
  const { runId, purposeType, balance } = query;
  const charged = db.prepare(CHARGED_BY_ROW).all(runId, purposeType) as { row: number | null; credits: number }[];
  const at = db.prepare(AT_SERVICE).get(runId, purposeType) as Record<keyof RunAtService, number>;
  const steps = db.prepare(STEPS).all(runId, purposeType) as RunJobSums['steps'];
  // SQLite's integers stop short of Infinity: a run whose readings ended counts every later job as in them.
  const until = balance?.until ?? Number.MAX_SAFE_INTEGER;
  const figures = balance ? (db.prepare(FIGURES).get(runId, purposeType, until, balance.since) as RunFigures) : null;
  return {
    chargedByRow: new Map(
      charged.filter((c) => typeof c.row === 'number').map((c) => [c.row as number, round(c.credits)]),
    ),
    atService: { steps: at.steps, credits: round(at.credits), unknown: at.unknown, charged: round(at.charged) },
    steps,
    figures,
  };
}

/** A campaign's row jobs; ?1 is its id. A step other than a voiceover counts as a video, as campaign-work.ts has it. */
const OF_CAMPAIGN = `run_id = ?1 AND purpose_type = 'campaign-row'`;
const VOICEOVER = `purpose_step = 'voiceover'`;
const REQUESTS = '1 + coalesce(polls, 0)';

/** Ended steps of each kind (voiceover 1, video 0): all of them, and those ended after ?2. */
export const WORK_ENDED = `SELECT coalesce(${VOICEOVER}, 0) AS voiceover, count(*) AS steps, total(${REQUESTS}) AS requests,
    count(CASE WHEN finished_at > ?2 THEN 1 END) AS recentSteps,
    total(CASE WHEN finished_at > ?2 THEN ${REQUESTS} END) AS recentRequests
  FROM jobs WHERE ${OF_CAMPAIGN} AND finished_at IS NOT NULL GROUP BY 1`;

/** The takes whose voiceovers are over (?2 of them ended, or one failed): how many, their voiceovers, how many failed none. */
export const WORK_OVER = `SELECT count(*) AS takes, total(voiceovers) AS voiceovers,
    count(CASE WHEN failed = 0 THEN 1 END) AS pastVoiceovers
  FROM (SELECT count(CASE WHEN ${VOICEOVER} THEN 1 END) AS voiceovers,
      count(CASE WHEN ${VOICEOVER} AND finished_at IS NOT NULL THEN 1 END) AS ended,
      count(CASE WHEN ${VOICEOVER} AND phase = 'failed' THEN 1 END) AS failed
    FROM jobs WHERE ${OF_CAMPAIGN} GROUP BY purpose_row, coalesce(purpose_take, 0))
  WHERE failed > 0 OR ended >= ?2`;

/** The jobs whose requests may have left after ?2: running, or created or ended since. */
export const WORK_LIVE = `SELECT coalesce(polls, 0) AS polls, created_at AS createdAt, finished_at AS finishedAt
  FROM jobs WHERE ${OF_CAMPAIGN} AND (finished_at IS NULL OR finished_at > ?2 OR created_at > ?2)`;

/** The jobs of the rows in ?2 (a JSON array of row numbers), every take: the caller keeps the rows' own takes. */
export const WORK_TAKES = `SELECT purpose_row AS row, coalesce(purpose_take, 0) AS take, coalesce(${VOICEOVER}, 0) AS voiceover,
    ${REQUESTS} AS requests, finished_at IS NOT NULL AS ended, phase = 'failed' AS failed
  FROM jobs WHERE ${OF_CAMPAIGN} AND purpose_row IN (SELECT value FROM json_each(?2))`;

/**
 * What a campaign's pace needs of its jobs (common/campaign/campaign-work.ts), summed over its run's
 * index: sums over every job, and job by job only those of the window and of the rows under way.
 */
export function campaignWorkSums(db: Sqlite, query: RunWorkQuery): RunWorkSums {
  const { campaignId, windowFrom } = query;
  const ended = noStepsEnded();
  for (const r of db.prepare(WORK_ENDED).all(campaignId, windowFrom) as Record<string, number>[])
    ended[r.voiceover ? 'voiceover' : 'video'] = {
      all: { steps: r.steps, requests: r.requests },
      recent: { steps: r.recentSteps, requests: r.recentRequests },
    };
  const found = db.prepare(WORK_OVER).get(campaignId, query.voiceovers) as RunWorkSums['over'];
  const over = { takes: found.takes, voiceovers: found.voiceovers, pastVoiceovers: found.pastVoiceovers };
  const live = db.prepare(WORK_LIVE).all(campaignId, windowFrom) as RunWorkSums['live'];
  const wanted = new Set(query.underWay.map((r) => takeKey(r.row, r.take)));
  const takes = new Map<string, TakeWork>();
  const rows = JSON.stringify([...new Set(query.underWay.map((r) => r.row))]);
  for (const job of db.prepare(WORK_TAKES).iterate(campaignId, rows) as Iterable<Record<string, number>>) {
    const key = takeKey(job.row, job.take);
    if (!wanted.has(key)) continue;
    const take = takes.get(key) ?? noTakeWork();
    takes.set(key, take);
    if (!job.ended) (job.voiceover ? take.voiceoversRunning : take.videosRunning).push(job.requests);
    else if (job.voiceover) take.voiceoversEnded += 1;
    else take.videosEnded += 1;
    if (job.voiceover && job.failed) take.voiceoversFailed += 1;
  }
  return { ended, over, takes, live };
}
