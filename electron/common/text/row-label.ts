/**
 * The one way a row of a spreadsheet is named, everywhere (the pages, the command line, manifests,
 * errors): by its number in the spreadsheet program, "sheet row 19", the header and blank lines counted,
 * so the row the studio names is the row the user finds in Excel. A row's `row` is its place among the
 * data rows (0-based, what records and file names are keyed by); `line` is its number in the sheet, read
 * with it. A record written before lines were read has none: its number is then taken as it would be
 * under a header on the first line with no blank line above it.
 */
export interface NumberedRow {
  row: number;
  line?: number | null;
}

/** The row's number in the spreadsheet (1-based, as the spreadsheet program shows it). */
export function sheetRow(row: NumberedRow): number {
  return row.line ?? row.row + 2;
}

/** "sheet row 19"; "Sheet row 19" to begin a sentence. */
export function rowLabel(row: NumberedRow, options: { capital?: boolean } = {}): string {
  return `${options.capital ? 'Sheet' : 'sheet'} row ${sheetRow(row)}`;
}
