// The engine's searches for a run's first pending or open row start where the last one stopped, and a
// row's change that makes it pass again is never skipped.
import { describe, expect, it } from 'vitest';
import { firstRow, keepMarks, rowOpen, rowPending } from '../../../electron/services/rows/engine/first-row';
import type { RowBase } from '../../../electron/services/rows/engine/row-kind';

const rowsOf = (states: string[]): RowBase[] => states.map((state, row) => ({ row, state, take: 0 }) as RowBase);

/** Replaces one row the way RunMemory.setRow does: a new list, the marks kept. */
function setRow(rows: RowBase[], at: number, state: string): RowBase[] {
  const changed = { ...rows[at], state } as RowBase;
  const after = [...rows];
  after[at] = changed;
  keepMarks(rows, after, at, changed);
  return after;
}

describe("a run's first row", () => {
  it('is found again after the row before the mark goes back to waiting', () => {
    let rows = rowsOf(['done', 'done', 'voice', 'pending', 'pending']);
    expect(firstRow(rows, rowPending)?.row).toBe(3);
    rows = setRow(rows, 3, 'voice');
    expect(firstRow(rows, rowPending)?.row).toBe(4);
    // Held back at a pause: row 2 waits again, before the mark.
    rows = setRow(rows, 2, 'pending');
    expect(firstRow(rows, rowPending)?.row).toBe(2);
  });

  it('says no row is open only when every row ended, whatever order they ended in', () => {
    let rows = rowsOf(['voice', 'voice', 'voice']);
    expect(firstRow(rows, rowOpen)?.row).toBe(0);
    rows = setRow(rows, 0, 'done');
    rows = setRow(rows, 2, 'failed');
    expect(firstRow(rows, rowOpen)?.row).toBe(1);
    // Made again: the ended row is open once more.
    rows = setRow(rows, 0, 'pending');
    expect(firstRow(rows, rowOpen)?.row).toBe(0);
    rows = setRow(rows, 0, 'done');
    rows = setRow(rows, 1, 'done');
    expect(firstRow(rows, rowOpen)).toBeUndefined();
  });

  it('searches a list it has not seen (a run saved whole) from the top', () => {
    const rows = rowsOf(['done', 'pending', 'pending']);
    expect(firstRow(rows, rowPending)?.row).toBe(1);
    const saved = rows.map((r, i) => (i === 0 ? ({ ...r, state: 'pending' } as RowBase) : r));
    expect(firstRow(saved, rowPending)?.row).toBe(0);
  });
});
