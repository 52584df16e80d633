import type { RunFigures } from '../../common/jobs/run-balance';
import type { RunAtService } from '../../common/jobs/run-at-service';
import type { RunJobSums, RunJobSumsQuery, RunWorkJob } from '../jobs/run-sums';
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

export const WORK_JOBS = `SELECT purpose_row AS row, coalesce(purpose_take, 0) AS take, purpose_step AS step,
    coalesce(polls, 0) AS polls, created_at, finished_at, phase
  FROM jobs WHERE run_id = ? AND purpose_type = 'campaign-row'`;

/**
 * The few fields of a campaign's jobs its pace needs, read a row at a time and kept by nobody: the pace
 * weighs each take's steps one by one, which no sum says.
 */
export function campaignWorkJobs(db: Sqlite, campaignId: string): RunWorkJob[] {
  const jobs: RunWorkJob[] = [];
  for (const r of db.prepare(WORK_JOBS).iterate(campaignId) as Iterable<Record<string, never>>)
    jobs.push({
      purpose: { type: 'campaign-row', campaignId, row: r.row, take: r.take, step: r.step },
      polls: r.polls,
      createdAt: r.created_at,
      finishedAt: r.finished_at,
      phase: r.phase,
    });
  return jobs;
}
