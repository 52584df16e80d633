import { Code } from '../../common/api/error-codes';
import type { BatchRowsQuery } from '../jobs/run-sums';
import type { Sqlite } from './database';

/**
 * Each row's newest job of any take and phase, for a batch bound as ?1 (the rows' states below meet it
 * on the row's take), read from jobs_run_steps (schema step 10).
 */
export const BATCH_NEWEST_JOBS = `newest AS (
    SELECT purpose_row AS row, coalesce(purpose_take, 0) AS take, phase, cost_state, rowid AS job, max(created_at)
    FROM jobs INDEXED BY jobs_run_steps
    WHERE run_id = ?1 AND purpose_type = 'batch-row'
    GROUP BY 1, 2
  )`;

/**
 * The state batchView gives a row `r` of run_rows met with its take's newest job `j` (BATCH_NEWEST_JOBS):
 * ?2 the batch's rows refused by the check (JSON), ?3 1 when it is on a queue, ?4 1 when it is cancelled.
 * A job refused before the service made anything has cost_state 'refused' (schema step 2); only such a
 * job's record is read, for its error's code.
 */
export const BATCH_ROW_STATE = `CASE
      WHEN r.state IS 'invalid' OR r.row IN (SELECT value FROM json_each(?2)) THEN 'invalid'
      WHEN j.phase IS NULL AND r.state IS 'failed' THEN 'failed'
      WHEN j.phase IS NULL AND r.state IS 'speech' AND ?3 THEN 'queued'
      WHEN j.phase IS NULL AND (?4 OR r.state IS 'cancelled') THEN 'cancelled'
      WHEN j.phase IS NULL THEN 'waiting'
      WHEN r.state IS 'speech' AND j.cost_state = 'refused'
        AND (SELECT json_extract(record, '$.error.code') FROM jobs WHERE rowid = j.job) IN (${Code.TooFrequent},
          ${Code.InsufficientQuota}, ${Code.InsufficientCredit}) THEN 'waiting'
      WHEN j.phase = 'submitting' THEN 'sending'
      ELSE j.phase END`;

/**
 * A batch's rows counted by the state its view gives each (voices/batch-view.ts batchView, which reads
 * the rows and their jobs whole), in one statement over two indexes: the rows' state and take from
 * run_rows_states (schema step 11) and each row's newest job of its take from jobs_run_steps (step 10).
 */
export const BATCH_ROW_STATES = `
  WITH ${BATCH_NEWEST_JOBS}
  SELECT ${BATCH_ROW_STATE} AS state,
    count(*) AS rows
  FROM run_rows r INDEXED BY run_rows_states
  LEFT JOIN newest j ON j.row = r.row AND j.take = coalesce(r.take, 0)
  WHERE r.kind = 'batches' AND r.run_id = ?1
  GROUP BY 1`;

/** What a batch's own fields bind into BATCH_ROW_STATE (?1 to ?4). */
export function batchStateParams(query: BatchRowsQuery): (string | number)[] {
  const { batchId, invalid, queued, cancelled } = query;
  return [batchId, JSON.stringify(invalid), queued ? 1 : 0, cancelled ? 1 : 0];
}

/** The batch's rows by state, as its view would count them. */
export function batchRowCounts(db: Sqlite, query: BatchRowsQuery): Record<string, number> {
  const found = db
    .prepare(BATCH_ROW_STATES)
    .raw()
    .all(...batchStateParams(query)) as [string, number][];
  return Object.fromEntries(found);
}
