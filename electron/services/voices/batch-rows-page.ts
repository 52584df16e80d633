import { batchRowHasProblem, BatchRowsQuery, type BatchRowsPage, type BatchRowView } from '../../common/bridge/batches';

/**
 * A window of a batch's rows as its table asks for it (batches.rows): all of them or those with a
 * problem, in the batch's order. `lost` holds the result links whose batch copies are lost (missing or
 * changed on disk, none intact), as the record of copies has them: a row made whose file is lost is a
 * problem, so the filter finds it without the page holding the batch's copies.
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
