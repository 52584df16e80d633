import type { BatchRowsQuery } from '../jobs/run-sums';
import type { RowsWindow, RowWindow, RunRowPages } from '../rows/engine/run-store';
import { BATCH_NEWEST_JOBS, BATCH_ROW_STATE, batchStateParams } from './batch-row-counts';
import type { Sqlite } from './database';

/**
 * A page of one run's rows read from the database (issue 68): the window of rows a grid or table shows,
 * in the run's order, all of them or those with a problem, and the counts beside it. The rows are walked
 * in run_rows_order (schema step 13), which holds each row's position, state, take, `held` and
 * `result_url`, so neither the filter nor the counts read a row's JSON: only the window's rows are read
 * whole, by their key. What makes a row a problem is worded here as the pages word it in JS
 * (rowHasProblem for a campaign, batchRowHasProblem over batchView's state for a batch), and a test
 * holds the two to the same answers.
 */

/** A done campaign row whose made file's link the record of copies has as lost (?2: the links as JSON). */
const CAMPAIGN_LOST = `(r.state IS 'done' AND r.result_url IN (SELECT value FROM json_each(?2)))`;
/** rowHasProblem: refused or failed, its file lost, or held with a reason while not done or cancelled. */
const CAMPAIGN_PROBLEM = `(r.state IN ('invalid', 'failed') OR ${CAMPAIGN_LOST}
  OR (coalesce(r.state, '') NOT IN ('done', 'cancelled') AND r.held IS 1))`;

export const CAMPAIGN_COUNTS = `SELECT count(*), count(CASE WHEN ${CAMPAIGN_PROBLEM} THEN 1 END),
    count(CASE WHEN ${CAMPAIGN_LOST} THEN 1 END)
  FROM run_rows r INDEXED BY run_rows_order WHERE r.kind = 'campaigns' AND r.run_id = ?1`;

/**
 * The window of a kind's run (?1) in its order, all rows or those `where` keeps (?3 limit, ?4 offset;
 * ?2 the lost links, unused by a window of all rows, so both take the same parameters).
 */
const windowOf = (kind: string, where = '') => `SELECT r.row FROM run_rows r INDEXED BY run_rows_order
  WHERE r.kind = '${kind}' AND r.run_id = ?1${where ? ` AND ${where}` : ''}
  ORDER BY r.position, r.row LIMIT ?3 OFFSET ?4`;

export const CAMPAIGN_WINDOW = windowOf('campaigns');
export const CAMPAIGN_PROBLEMS_WINDOW = windowOf('campaigns', CAMPAIGN_PROBLEM);
export const BATCH_WINDOW = windowOf('batches');

/**
 * A batch's rows with what batchRowHasProblem asks of each: the state batchView gives it (BATCH_ROW_STATE),
 * its take's newest job, and its newest made job of any take (the row's file while a new take is made).
 * ?5: the lost links as JSON, whose jobs are found by jobs_by_result (schema step 6), named: left to
 * itself SQLite took the run's index and read every job's record of the run for its link.
 */
const BATCH_JUDGED = `WITH ${BATCH_NEWEST_JOBS},
  made AS (
    SELECT purpose_row AS row, rowid AS job, max(created_at)
    FROM jobs INDEXED BY jobs_run_steps
    WHERE run_id = ?1 AND purpose_type = 'batch-row' AND phase = 'completed'
    GROUP BY 1
  ),
  lost AS (
    SELECT rowid AS job FROM jobs INDEXED BY jobs_by_result
    WHERE phase = 'completed' AND json_extract(record, '$.resultUrl') IN (SELECT value FROM json_each(?5))
      AND run_id = ?1
  ),
  judged AS (
    SELECT r.position, r.row, ${BATCH_ROW_STATE} AS state, r.held, j.job, j.phase, m.job AS made
    FROM run_rows r INDEXED BY run_rows_order
    LEFT JOIN newest j ON j.row = r.row AND j.take = coalesce(r.take, 0)
    LEFT JOIN made m ON m.row = r.row
    WHERE r.kind = 'batches' AND r.run_id = ?1
  )`;

/**
 * batchRowHasProblem: failed, refused, held with a reason (the job's error explained, or the row's own
 * problems) while not made or cancelled, or made with its file lost. The job's record is read for its
 * explanation only for a row still under way (few at any time): the others are decided without it.
 */
const BATCH_PROBLEM = `(q.state IN ('failed', 'outcome-unknown', 'stalled', 'invalid')
  OR (CASE WHEN q.phase = 'completed' THEN q.job ELSE q.made END) IN (SELECT job FROM lost)
  OR (q.state NOT IN ('completed', 'cancelled') AND (q.held IS 1
    OR (q.job IS NOT NULL AND (SELECT json_extract(record, '$.error.explanation') FROM jobs WHERE rowid = q.job) IS NOT NULL))))`;

export const BATCH_COUNTS = `${BATCH_JUDGED}
  SELECT count(*), count(CASE WHEN ${BATCH_PROBLEM} THEN 1 END) FROM judged q`;

export const BATCH_PROBLEMS_WINDOW = `${BATCH_JUDGED}
  SELECT q.row FROM judged q WHERE ${BATCH_PROBLEM} ORDER BY q.position, q.row LIMIT ?6 OFFSET ?7`;

/** The window's rows whole, by their key. */
const ROWS_BY_KEY = `SELECT row, record FROM run_rows
  WHERE kind = ?1 AND run_id = ?2 AND row IN (SELECT value FROM json_each(?3))`;

/** The jobs of some rows of a batch (all their takes), from jobs_run_steps. */
const BATCH_ROWS_JOBS = `SELECT record FROM jobs
  WHERE run_id = ?1 AND purpose_type = 'batch-row' AND purpose_row IN (SELECT value FROM json_each(?2))`;

const GET_OWN = 'SELECT run FROM runs WHERE kind = ? AND id = ?';

/** Pages of the runs kept in a folder's database, at its version RUN_ROW_PAGES or later. */
export class SqlRunRowPages implements RunRowPages {
  constructor(private readonly db: Sqlite) {}

  /** The run's own fields as stored (its JSON without rows); null when the table has no such run. */
  own(kind: string, id: string): string | null {
    const found = this.db.prepare(GET_OWN).raw().get(kind, id) as [string] | undefined;
    return found ? found[0] : null;
  }

  /** A window of a campaign's rows: its problems as rowHasProblem finds them. */
  campaign(id: string, window: RowWindow): RowsWindow {
    const lost = JSON.stringify(window.lost);
    const [all, problems, lostDone] = this.db.prepare(CAMPAIGN_COUNTS).raw().get(id, lost) as number[];
    const sql = window.problems ? CAMPAIGN_PROBLEMS_WINDOW : CAMPAIGN_WINDOW;
    const rows = this.db.prepare(sql).raw().all(id, lost, window.limit, window.offset) as [number][];
    return {
      total: window.problems ? (problems ?? 0) : (all ?? 0),
      problems: problems ?? 0,
      lostDone: lostDone ?? 0,
      rows: this.rowsByKey('campaigns', id, rows),
    };
  }

  /** A window of a batch's rows: its problems as batchRowHasProblem finds them over batchView's states. */
  batch(query: BatchRowsQuery, window: RowWindow): RowsWindow {
    const params = [...batchStateParams(query), JSON.stringify(window.lost)];
    const [all, problems] = this.db
      .prepare(BATCH_COUNTS)
      .raw()
      .get(...params) as number[];
    const rows = window.problems
      ? (this.db
          .prepare(BATCH_PROBLEMS_WINDOW)
          .raw()
          .all(...params, window.limit, window.offset) as [number][])
      : (this.db.prepare(BATCH_WINDOW).raw().all(query.batchId, null, window.limit, window.offset) as [number][]);
    return {
      total: window.problems ? (problems ?? 0) : (all ?? 0),
      problems: problems ?? 0,
      lostDone: 0,
      rows: this.rowsByKey('batches', query.batchId, rows),
    };
  }

  /** The records' JSON texts of every job of these rows of a batch. */
  batchRowsJobs(batchId: string, rows: readonly number[]): string[] {
    if (rows.length === 0) return [];
    const found = this.db.prepare(BATCH_ROWS_JOBS).raw().all(batchId, JSON.stringify(rows)) as [string][];
    return found.map(([text]) => text);
  }

  private rowsByKey(kind: string, id: string, window: readonly [number][]): string[] {
    if (window.length === 0) return [];
    const rows = window.map(([row]) => row);
    const found = this.db.prepare(ROWS_BY_KEY).raw().all(kind, id, JSON.stringify(rows)) as [number, string][];
    const byRow = new Map(found);
    return rows.flatMap((row) => byRow.get(row) ?? []);
  }
}
