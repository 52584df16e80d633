import { variableKey, type RowValues, type TemplateVariable } from './variables';

/**
 * A campaign's rows from a spreadsheet's cells (read by services/sheets: any encoding, .xlsx). The
 * first line names the columns; each variable of the template takes the column of the same name (case,
 * spaces, dashes and underscores aside), or the one the user mapped it to. Pure.
 */

/**
 * At most this many rows in one campaign (a bigger one is several campaigns): the size a team's
 * personalised campaign reaches, made on workers (docs/scale-out.md; the scale bench runs one).
 */
export const MAX_CAMPAIGN_ROWS = 100_000;

export interface CampaignRow {
  /** 0-based place under the header: what records, edits and {{row}} are keyed by. */
  row: number;
  /** Its number in the spreadsheet, as rowLabel names it ("sheet row 4"); read with the row. */
  line?: number;
  /** Every column's value by variable key (the columns the template does not use too: the manifest keeps them). */
  values: RowValues;
}

export interface CampaignTable {
  rows: CampaignRow[];
  /** Which column each variable of the template is read from, by key. */
  columns: Record<string, string>;
  /** What stops the whole file (a variable no column gives, no rows): nothing can be sent while there is one. */
  problems: string[];
  /** Header cells no variable uses, as written. */
  unused: string[];
}

/**
 * The rows of a table whose first line is a header. `mapping` names, by variable, the column to read
 * it from when the names differ ("first name" → "Given name"); `sheetLines` gives each line's number in
 * the spreadsheet (the reader's; by default the lines are the sheet's first ones, without gaps).
 */
export function campaignTable(
  lines: readonly (readonly string[])[],
  variables: readonly TemplateVariable[],
  mapping: Readonly<Record<string, string>> = {},
  sheetLines: readonly number[] = lines.map((_, i) => i + 1),
): CampaignTable {
  const header = (lines[0] ?? []).map((cell) => cell.trim());
  const body = lines
    .map((cells, i) => ({ cells, line: sheetLines[i] ?? i + 1 }))
    .slice(1)
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  const problems: string[] = [];
  if (lines.length === 0) return { rows: [], columns: {}, problems: ['the file has no rows'], unused: [] };
  if (body.length === 0) problems.push('the file has a header and no rows under it');
  if (body.length > MAX_CAMPAIGN_ROWS)
    problems.push(`the file has ${body.length} rows; one campaign takes at most ${MAX_CAMPAIGN_ROWS}`);

  const byKey = new Map<string, number>();
  header.forEach((cell, i) => {
    const key = variableKey(cell);
    if (key !== '' && !byKey.has(key)) byKey.set(key, i);
  });
  const mapped = new Map(Object.entries(mapping).map(([variable, column]) => [variableKey(variable), column]));
  const columns: Record<string, string> = {};
  const used = new Set<number>();
  for (const variable of variables) {
    const wanted = mapped.get(variable.key);
    const index =
      wanted !== undefined
        ? header.findIndex((cell) => cell === wanted.trim() || variableKey(cell) === variableKey(wanted))
        : (byKey.get(variable.key) ?? -1);
    if (index < 0) {
      const named = header
        .filter(Boolean)
        .map((cell) => `"${cell}"`)
        .join(', ');
      problems.push(
        wanted !== undefined
          ? `{{${variable.name}}} is mapped to the column "${wanted}", which the file does not have (its columns: ${named})`
          : `the template uses {{${variable.name}}} and no column is named so (the columns: ${named}); name a column "${variable.name}" or map one to it`,
      );
      continue;
    }
    columns[variable.key] = header[index];
    used.add(index);
  }
  for (const [variable] of mapped) {
    if (!variables.some((v) => v.key === variable))
      problems.push(`a column is mapped to {{${variable}}}, which the template does not use`);
  }

  const rows = body.slice(0, MAX_CAMPAIGN_ROWS).map(({ cells: line, line: sheetLine }, row): CampaignRow => {
    const values: Record<string, string> = {};
    header.forEach((cell, i) => {
      const key = variableKey(cell);
      if (key !== '' && !(key in values)) values[key] = (line[i] ?? '').trim();
    });
    // A mapped variable reads its column whatever that column is called.
    for (const variable of variables) {
      const column = columns[variable.key];
      if (column !== undefined) values[variable.key] = (line[header.indexOf(column)] ?? '').trim();
    }
    return { row, line: sheetLine, values };
  });
  return { rows, columns, problems, unused: header.filter((cell, i) => cell !== '' && !used.has(i)) };
}

/** The number {{row}} is filled with: as many digits as the last row, so the files sort in row order. */
export function rowNumberText(row: number, lastRow: number): string {
  return String(row + 1).padStart(String(lastRow + 1).length, '0');
}
