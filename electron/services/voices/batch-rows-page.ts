import { batchRowHasProblem, BatchRowsQuery, type BatchRowsPage, type BatchRowView } from '../../common/bridge/batches';
import { JobRecord } from '../../common/bridge/jobs';
import { toJobView } from '../jobs/job-view';
import type { RunRowPages } from '../rows/engine/run-store';
import { BatchRecord, BatchRowRecord } from './batch-record';
import { batchRowViews } from './batch-view';

/**
 * A window of a batch's rows as its table asks for it (batches.rows): all of them or those with a
 * problem, in the batch's order. `lost` holds the result links whose batch copies are lost (missing or
 * changed on disk, none intact), as the record of copies has them: a row made whose file is lost is a
 * problem, so the filter finds it without the page holding the batch's copies.
 *
 * This cuts the window from every row of the batch read whole: what a store that cannot read a window
 * itself is answered with (readBatchRowsPage), and what the database's window is held to in the tests.
 */
export function batchRowsPage(
  rows: readonly BatchRowView[],
  raw: BatchRowsQuery,
  lost: ReadonlySet<string>,
): BatchRowsPage {
  const query = BatchRowsQuery.parse(raw);
  const problems = rows.filter((row) => batchRowHasProblem(row, row.resultUrl !== null && lost.has(row.resultUrl)));
  const kept = query.filter === 'problems' ? problems : rows;
  return {
    total: kept.length,
    problems: problems.length,
    rows: kept.slice(query.offset, query.offset + query.limit),
  };
}

/**
 * The window read from the database (records/run-row-pages.ts): the filter and the counts are worked
 * out there, and only the window's rows and their jobs are read and viewed here (batchRowViews, as the
 * whole batch's view does). Null when the store cannot (a folder an older studio last opened, a batch
 * still kept as files by an earlier version): the caller cuts the page from the whole batch.
 */
export function readBatchRowsPage(
  pages: RunRowPages,
  id: string,
  raw: BatchRowsQuery,
  lost: ReadonlySet<string>,
  now: number = Date.now(),
): BatchRowsPage | null {
  const text = pages.own('batches', id);
  if (text === null) return null;
  const query = BatchRowsQuery.parse(raw);
  const own = BatchRecord.parse({ ...(JSON.parse(text) as object), rows: [] });
  const window = pages.batch(
    { batchId: id, invalid: own.invalid, queued: Boolean(own.queue), cancelled: own.state === 'cancelled' },
    { offset: query.offset, limit: query.limit, problems: query.filter === 'problems', lost: [...lost] },
  );
  const rows = window.rows.map((row) => BatchRowRecord.parse(JSON.parse(row)));
  const jobs = pages.batchRowsJobs(
    id,
    rows.map((r) => r.row),
  );
  const views = jobs.flatMap((job) => {
    // A record the ledger cannot read is set aside by the ledger, not by a page.
    const parsed = JobRecord.safeParse(JSON.parse(job));
    return parsed.success ? [toJobView(parsed.data, now)] : [];
  });
  return { total: window.total, problems: window.problems, rows: batchRowViews({ ...own, rows }, views) };
}
