// Rows are named as the spreadsheet numbers them (issue 53: "Row 18" was the 18th data row, line 19 in
// Excel): the readers carry each row's own number in the sheet, the header and blank lines counted, and
// one function names every row from it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { campaignTable } from '../../../electron/common/campaign/rows';
import { rowLabel } from '../../../electron/common/text/row-label';
import { readSheetFile } from '../../../electron/services/sheets/read-sheet';
import { checkBatchTable, readPastedLines } from '../../../electron/services/voices/batch-input';

const corpus = (name: string) => join(import.meta.dirname, '..', '..', 'fixtures', 'sheets', name);
const scratch = mkdtempSync(join(tmpdir(), 'sheet-lines-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const LIMITS = { maxRows: 10_000 };
const variables = [{ key: 'firstname', name: 'First name', places: [] }];

describe('rows named by their number in the sheet', () => {
  it('a CSV: the header is row 1, blank lines count, a cell with a line break is one row', async () => {
    const path = join(scratch, 'prospects.csv');
    writeFileSync(path, 'First name,company\r\n\r\nAna,Acme\r\n,\r\n"Bo\nthe second",Beta\r\n\r\n\r\nCy,Gamma\r\n');
    const table = await readSheetFile(path, LIMITS);
    expect(table.lines).toEqual([1, 3, 5, 8]);
    const read = campaignTable(table.rows, variables, {}, table.lines);
    expect(read.rows.map((r) => [r.row, rowLabel(r)])).toEqual([
      [0, 'sheet row 3'],
      [1, 'sheet row 5'],
      [2, 'sheet row 8'],
    ]);
  });

  it('an .xlsx: rows Excel leaves out of the file (empty ones, above the header too) count', async () => {
    const table = await readSheetFile(corpus('excel-gaps.xlsx'), LIMITS);
    expect(table.rows.map((r) => r[0])).toEqual(['First name', 'Ana', 'Bo', 'Cy']);
    expect(table.lines).toEqual([2, 3, 5, 7]);
    const read = campaignTable(table.rows, variables, {}, table.lines);
    expect(read.rows.map((r) => rowLabel(r, { capital: true }))).toEqual(['Sheet row 3', 'Sheet row 5', 'Sheet row 7']);
  });

  it("a batch's spreadsheet and pasted lines keep their numbers too", async () => {
    const path = join(scratch, 'spots.csv');
    writeFileSync(path, 'text,voice\n\nFirst spot.,Ava\n\nSecond spot.,Ava\n');
    const table = await readSheetFile(path, LIMITS);
    const batch = checkBatchTable(table.rows, {}, null, undefined, table.lines);
    expect(batch.rows.map((r) => rowLabel(r))).toEqual(['sheet row 3', 'sheet row 5']);
    const pasted = readPastedLines('One line.\n\n   \nAnother line.\n');
    expect(pasted.rows.map((r) => [r.row, rowLabel(r)])).toEqual([
      [0, 'sheet row 1'],
      [1, 'sheet row 4'],
    ]);
  });
});
