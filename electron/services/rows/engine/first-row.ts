import { ROW_ENDED, ROW_HELD, type RowBase } from './row-kind';

type RowTest = (row: RowBase) => boolean;

/** A row not started yet: the next the run starts. */
export const rowPending: RowTest = (row) => row.state === 'pending';
/** A row not ended: while there is one, the run has not finished. */
export const rowOpen: RowTest = (row) => !ROW_ENDED.has(row.state);
/** A row that goes on by itself (neither ended nor held for its user): while there is one, the run does not wait. */
export const rowGoesOn: RowTest = (row) => !ROW_ENDED.has(row.state) && row.state !== ROW_HELD;

/**
 * How far each search through a list of rows got: no row before the mark passed its test. The engine looks
 * for a run's first pending row, and whether any is still open, after every row's step; searched from the
 * top each time, a 100,000-row run walked every row already made at each of them.
 */
const marks = new WeakMap<readonly RowBase[], Map<RowTest, number>>();

/** The run's first row that passes `test`, searched from where the last search of these rows stopped. */
export function firstRow(rows: readonly RowBase[], test: RowTest): RowBase | undefined {
  let kept = marks.get(rows);
  if (!kept) marks.set(rows, (kept = new Map()));
  let at = kept.get(test) ?? 0;
  while (at < rows.length && !test(rows[at] as RowBase)) at += 1;
  kept.set(test, at);
  return rows[at];
}

/**
 * `after` is `before` with the row at `at` replaced by `changed` (RunMemory.setRow): it keeps the marks,
 * each moved back to that row when the row now passes the mark's test. Any other new list of rows (a
 * run saved whole, read from disk) has none, and is searched from the top once.
 */
export function keepMarks(before: readonly RowBase[], after: readonly RowBase[], at: number, changed: RowBase): void {
  const kept = marks.get(before);
  if (!kept) return;
  marks.set(after, new Map([...kept].map(([test, from]) => [test, test(changed) ? Math.min(from, at) : from])));
}
