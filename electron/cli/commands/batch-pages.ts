import type { BatchRowsPage, BatchRowView } from '../../common/bridge/batches';

/** The studio's paged call for a batch's rows (batches.rows), here or in the folder's owner. */
export type ReadBatchRows = (
  id: string,
  query: { offset: number; limit: number; filter: 'all' | 'problems' },
) => Promise<BatchRowsPage>;

/** The most rows one page may hold (the contract's bound). */
const PAGE = 500;

/**
 * A batch's rows, all or those with a problem, read a page at a time: the command line never holds a
 * batch of 100,000 rows at once. A row that moves between pages while they are read (a row ending
 * changes whether it is a problem) may be missed or read twice; the report reads an ended batch.
 */
export async function* batchRows(
  read: ReadBatchRows,
  id: string,
  filter: 'all' | 'problems',
): AsyncGenerator<BatchRowView> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await read(id, { offset, limit: PAGE, filter });
    yield* page.rows;
    if (page.rows.length < PAGE || offset + PAGE >= page.total) return;
  }
}
