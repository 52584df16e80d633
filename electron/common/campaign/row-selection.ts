import { z } from 'zod';

/**
 * Some rows of a campaign's spreadsheet, by their numbers in it (rowLabel's "sheet row 19": the header
 * and blank lines counted, as the spreadsheet program shows them), so "the first 300" of a sheet with a
 * header on line 1 is 2-301. Each range is inclusive; a single row is a range of one.
 */
export const ROW_NUMBER_MAX = 10_000_000;
const RowNumber = z.number().int().min(1).max(ROW_NUMBER_MAX);
export const RowRange = z.tuple([RowNumber, RowNumber]).refine(([from, to]) => from <= to, {
  message: 'a range of rows runs from the lower number to the higher',
});
export type RowRange = z.infer<typeof RowRange>;
export const RowSelection = z.array(RowRange).min(1).max(1000);
export type RowSelection = z.infer<typeof RowSelection>;

/** Whether the sheet row numbered `sheetRow` is among the selection's. */
export function inSelection(selection: readonly RowRange[], sheetRow: number): boolean {
  return selection.some(([from, to]) => sheetRow >= from && sheetRow <= to);
}

/** "2-301", "15": one range as it is written. */
export function rangeText([from, to]: RowRange): string {
  return from === to ? String(from) : `${from}-${to}`;
}

/** "2-10,15": the selection as it is written on a command line. */
export function selectionText(selection: readonly RowRange[]): string {
  return selection.map(rangeText).join(',');
}

function rowNumber(text: string, part: string): number {
  if (!/^\d+$/.test(text))
    throw new Error(
      `"${text || part}" is not a sheet row number (a whole number, as the spreadsheet numbers its rows)`,
    );
  const n = Number(text);
  if (n < 1) throw new Error(`there is no sheet row ${text}: the spreadsheet numbers its rows from 1`);
  if (n > ROW_NUMBER_MAX) throw new Error(`${text} is past the last row a spreadsheet can have`);
  return n;
}

/**
 * Reads "2-301", "15" or a list of them ("2-10,15"); throws an Error saying what is wrong with the
 * text (an empty part, a word, a range written backwards) for the caller to put its flag's name to.
 */
export function parseRowSelection(text: string): RowSelection {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length === 1 && parts[0] === '') throw new Error('no rows given: write them as 2-301, 15 or 2-10,15');
  if (parts.length > 1000) throw new Error(`${parts.length} parts; at most 1000 ranges`);
  return parts.map((part): RowRange => {
    if (part === '') throw new Error('an empty part between commas');
    // An en dash too: a range copied from a document often has one.
    const ends = part.split(/\s*[-–]\s*/);
    if (ends.length > 2) throw new Error(`"${part}" is not a row or a range (write a range as 2-301)`);
    const from = rowNumber(ends[0], part);
    const to = ends.length === 2 ? rowNumber(ends[1], part) : from;
    if (from > to) throw new Error(`${part} runs backwards; write it ${to}-${from}`);
    return [from, to];
  });
}
