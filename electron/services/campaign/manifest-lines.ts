import Papa from 'papaparse';

/** What a line is made of besides its row: the template (its formats' columns), the header, the line's campaign and cost. */
export interface LineContext {
  template: object;
  /** The header's columns as one text. */
  header: string;
  campaign: string;
  cost: number | string;
}

/**
 * Each row's manifest line as last written. Rows are replaced, never changed in place, so the same row
 * object in the same context gives the same text: a write builds only the lines of rows changed since
 * the last, and a 100,000-row manifest costs its changes, not its rows.
 */
const made = new WeakMap<object, { context: LineContext; text: string }>();

const sameContext = (a: LineContext, b: LineContext) =>
  a.template === b.template && a.cost === b.cost && a.campaign === b.campaign && a.header === b.header;

/** One line of CSV, cells in the header's order, quoted as a whole file's would be and never a formula. */
export function csvLine(
  row: object,
  context: LineContext,
  header: readonly string[],
  cells: () => Record<string, unknown>,
): string {
  const known = made.get(row);
  if (known && sameContext(known.context, context)) return known.text;
  const text = Papa.unparse([cells()], { columns: [...header], header: false, escapeFormulae: true });
  made.set(row, { context, text });
  return text;
}

/** The header's own line, without its line end (Papa ends a header given alone with one). */
export function csvHeader(header: readonly string[]): string {
  return Papa.unparse([[...header]], { header: false, escapeFormulae: true });
}
