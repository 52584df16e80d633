import Papa from 'papaparse';
import type { CatalogueService } from '../catalogue/catalogue-service';
import {
  batchRowProblem,
  normaliseRate,
  type BatchColumns,
  type BatchRowEdit,
  type BatchColumnsFound,
  type BatchProblem,
  type BatchRow,
} from '../../common/bridge/batches';

/** What a batch takes when a row leaves a field out. */
export interface BatchDefaults {
  voiceId?: string;
  rate?: string;
}

/**
 * Whether a voice id names a voice of the connection, and the id of a voice given by its name (people
 * write "Ava", not "sandbox_ava"); null when the voice list could not be read.
 */
export type KnownVoices = (((voiceId: string) => boolean) & { idOf?(voice: string): string | null }) | null;

export interface ReadBatch {
  rows: BatchRow[];
  /** Rows that cannot be sent; the others can be. */
  problems: BatchProblem[];
  columns: BatchColumnsFound;
}

/** Column names people use, lower-cased: the first found wins. */
const COLUMNS = {
  text: ['text', 'script', 'input_text', 'line', 'copy', 'voiceover', 'voice over'],
  voice: ['voice', 'voice_id', 'voiceid', 'voice id', 'voice name'],
  rate: ['rate', 'speed', 'speaking rate', 'rate %', 'speed %', 'rate (%)', 'speed (%)'],
  name: ['name', 'file', 'filename', 'file name', 'file_name', 'title'],
} as const;

/** At most this many rows in one batch: a bigger job is several batches. */
export const MAX_BATCH_ROWS = 10_000;

function findColumn(header: string[], names: readonly string[]): number {
  return header.findIndex((cell) => names.includes(cell.trim().toLowerCase()));
}

/**
 * Reads a batch from CSV text (or lines pasted one per voiceover); a file goes through the sheets
 * reader first (any encoding, .xlsx) and then `checkBatchTable`. Blank lines are skipped; each row keeps its
 * line number in the text.
 */
export function readBatch(
  csv: string,
  defaults: BatchDefaults = {},
  knownVoices: KnownVoices = null,
  mapping?: BatchColumns,
): ReadBatch {
  // Blank lines are read and left out here, so that each kept line keeps its number in the text.
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  const numbered = parsed.data
    .map((cells, i) => ({ cells, line: i + 1 }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  const lines = numbered.map((n) => n.cells);
  const read = checkBatchTable(
    lines,
    defaults,
    knownVoices,
    mapping,
    numbered.map((n) => n.line),
  );
  // A one-column file has no delimiter to detect; that is not a problem with any row.
  const errors = parsed.errors.filter((error) => error.type !== 'Delimiter');
  if (errors.length > 0 && read.problems.length === 0 && read.rows.length > 0) {
    const first = errors[0];
    const hasHeader =
      findColumn(
        lines[0].map((cell) => cell.trim().toLowerCase()),
        COLUMNS.text,
      ) >= 0;
    read.problems.push({
      row: Math.max(0, (first.row ?? 0) - (hasHeader ? 1 : 0)),
      message: `the CSV could not be read there: ${first.message}`,
    });
  }
  return read;
}

/**
 * Lines pasted in the Voices workspace: CSV when the first line names a script column (or the user
 * mapped the columns), otherwise one script per line, commas and all.
 */
export function readPastedLines(
  text: string,
  defaults: BatchDefaults = {},
  knownVoices: KnownVoices = null,
  mapping?: BatchColumns,
): ReadBatch {
  const first = Papa.parse<string[]>(text.replace(/^\uFEFF/, '').trimStart(), { preview: 1 }).data[0] ?? [];
  if (
    mapping ||
    findColumn(
      first.map((cell) => cell.trim().toLowerCase()),
      COLUMNS.text,
    ) >= 0
  )
    return readBatch(text, defaults, knownVoices, mapping);
  const numbered = text
    .split(/\r\n|\n|\r/)
    .map((line, i) => ({ cells: [line.trim()], line: i + 1 }))
    .filter(({ cells }) => cells[0] !== '');
  return checkBatchTable(
    numbered.map((n) => n.cells),
    defaults,
    knownVoices,
    { header: false, text: 0, voice: -1, rate: -1, name: -1 },
    numbered.map((n) => n.line),
  );
}

/**
 * Which column holds what: the user's mapping when given; else the header's names where they are known
 * ones; else, for a single column, every line is a script. A table of several columns whose first line
 * names no script column gets no mapping: the user says which column is which (nothing is guessed).
 */
function mapColumns(lines: string[][], mapping: BatchColumns | undefined): BatchColumns | null {
  if (mapping) return mapping;
  const header = lines[0].map((cell) => cell.trim().toLowerCase());
  const text = findColumn(header, COLUMNS.text);
  if (text >= 0)
    return {
      header: true,
      text,
      voice: findColumn(header, COLUMNS.voice),
      rate: findColumn(header, COLUMNS.rate),
      name: findColumn(header, COLUMNS.name),
    };
  const width = Math.max(...lines.slice(0, 50).map((line) => line.filter((cell) => cell.trim() !== '').length));
  return width <= 1 ? { header: false, text: 0, voice: -1, rate: -1, name: -1 } : null;
}

/**
 * Checks a batch's table (the first line may be a header), its columns mapped as mapColumns says.
 * Every row is checked against the service's rules, and its voice against the connection's voices
 * when they are known.
 */
export function checkBatchTable(
  lines: string[][],
  defaults: BatchDefaults = {},
  knownVoices: KnownVoices = null,
  mapping?: BatchColumns,
  /** Each line's number in the spreadsheet or text (the reader's); by default the first lines, without gaps. */
  sheetLines: readonly number[] = lines.map((_, i) => i + 1),
): ReadBatch {
  if (lines.length === 0)
    return {
      rows: [],
      problems: [{ row: 0, message: 'the file has no rows' }],
      columns: { cells: [], mapping: null, unused: [] },
    };
  const cells = lines[0].map((cell) => cell.trim());
  const columns = mapColumns(lines, mapping);
  if (!columns) {
    const named = cells
      .filter(Boolean)
      .map((cell) => `"${cell}"`)
      .join(', ');
    return {
      rows: [],
      problems: [
        {
          row: 0,
          message: `no column is named as the script (the first line has ${named}): say which column holds what`,
        },
      ],
      columns: { cells, mapping: null, unused: cells },
    };
  }
  const used = new Set([columns.text, columns.voice, columns.rate, columns.name]);
  const found: BatchColumnsFound = {
    cells,
    mapping: columns,
    unused: columns.header ? cells.filter((cell, i) => cell !== '' && !used.has(i)) : [],
  };
  const hasHeader = columns.header;
  const body = hasHeader ? lines.slice(1) : lines;
  if (hasHeader && body.length === 0)
    return { rows: [], problems: [{ row: 0, message: 'the file has a header and no rows under it' }], columns: found };
  if (body.length > MAX_BATCH_ROWS) {
    return {
      rows: [],
      problems: [{ row: 0, message: `the file has ${body.length} rows; one batch takes at most ${MAX_BATCH_ROWS}` }],
      columns: found,
    };
  }
  const rows: BatchRow[] = [];
  const problems: BatchProblem[] = [];
  body.forEach((cells, row) => {
    const cell = (index: number): string => (index >= 0 ? (cells[index] ?? '').trim() : '');
    const { entry, problem } = checkRow(
      row,
      { text: cell(columns.text), voice: cell(columns.voice), rate: cell(columns.rate), name: cell(columns.name) },
      defaults,
      knownVoices,
    );
    rows.push({ ...entry, line: sheetLines[row + (hasHeader ? 1 : 0)] });
    if (problem) problems.push({ row, message: problem });
  });
  return { rows, problems, columns: found };
}

/** One row from its cells as the user wrote them: the voice by name or id, the rate in any form normaliseRate reads. */
export function checkRow(
  row: number,
  cells: { text: string; voice: string; rate: string; name: string },
  defaults: BatchDefaults,
  knownVoices: KnownVoices,
): { entry: BatchRow; problem: string | null } {
  const defaultRate = defaults.rate === undefined ? '50%' : (normaliseRate(defaults.rate) ?? defaults.rate);
  const rateCell = cells.rate.trim();
  const rate = rateCell === '' ? defaultRate : normaliseRate(rateCell);
  const voice = cells.voice.trim();
  const entry: BatchRow = {
    row,
    text: cells.text.trim(),
    voiceId: voice ? (knownVoices?.idOf?.(voice) ?? voice) : (defaults.voiceId ?? ''),
    rate: rate ?? rateCell,
    name: cells.name.trim() || null,
  };
  const problem =
    rate === null
      ? `rate "${rateCell}" is not 0% to 100%`
      : (batchRowProblem(entry) ?? unknownVoiceProblem(entry.voiceId, knownVoices));
  return { entry, problem };
}

/** A row with the user's edit on top: fields the edit leaves out keep the row's values. */
export function editedRow(
  row: BatchRow,
  edit: Omit<BatchRowEdit, 'row'>,
  defaults: BatchDefaults,
  knownVoices: KnownVoices,
): { entry: BatchRow; problem: string | null } {
  const { entry, problem } = checkRow(
    row.row,
    {
      text: edit.text ?? row.text,
      voice: edit.voice ?? row.voiceId,
      rate: edit.rate ?? row.rate,
      name: edit.name ?? row.name ?? '',
    },
    defaults,
    knownVoices,
  );
  // An edited row is still the same line of the file.
  return { entry: row.line === undefined ? entry : { ...entry, line: row.line }, problem };
}

/**
 * The table as the user left it before sending: edited rows checked again (their earlier problem goes
 * with the old cells), deleted rows gone. Rows keep the numbers they have in the file, so row 7 of the
 * table is still row 7 of the spreadsheet, and its file is still named 07-….
 */
export function applyRowEdits(
  read: ReadBatch,
  edits: readonly BatchRowEdit[] = [],
  removed: readonly number[] = [],
  defaults: BatchDefaults = {},
  knownVoices: KnownVoices = null,
): ReadBatch {
  if (edits.length === 0 && removed.length === 0) return read;
  const gone = new Set(removed);
  const byRow = new Map(edits.map((edit) => [edit.row, edit]));
  const problems = new Map(read.problems.map((p) => [p.row, p.message]));
  const rows: BatchRow[] = [];
  for (const row of read.rows) {
    if (gone.has(row.row)) {
      problems.delete(row.row);
      continue;
    }
    const edit = byRow.get(row.row);
    if (!edit) {
      rows.push(row);
      continue;
    }
    const { entry, problem } = editedRow(row, edit, defaults, knownVoices);
    rows.push(entry);
    if (problem) problems.set(row.row, problem);
    else problems.delete(row.row);
  }
  // A problem about the whole file (row 0 of no rows) stays.
  const kept = [...problems].filter(([row]) => read.rows.length === 0 || rows.some((r) => r.row === row));
  return { ...read, rows, problems: kept.map(([row, message]) => ({ row, message })).sort((a, b) => a.row - b.row) };
}

/** "voice "x" is not one of this connection's voices"; null when it is, or when the voices are not known. */
export function unknownVoiceProblem(voiceId: string, knownVoices: KnownVoices): string | null {
  if (!knownVoices || knownVoices(voiceId)) return null;
  return `voice "${voiceId}" is not one of this connection's voices (the voice library lists them)`;
}

/**
 * The connection's voices (official and the user's own) as a lookup. A list that cannot be read
 * gives null: the rows are then sent as they are, and the service names a wrong voice itself.
 */
export async function knownVoicesOf(catalogue: Pick<CatalogueService, 'voices'>): Promise<KnownVoices> {
  try {
    const voices = await catalogue.voices();
    const ids = new Set(voices.map((voice) => voice.voice_id));
    // A name two voices share names neither: the row is refused, not guessed.
    const byName = new Map<string, string | null>();
    for (const voice of voices) {
      const key = (voice.name ?? '').trim().toLowerCase();
      if (key) byName.set(key, byName.has(key) ? null : voice.voice_id);
    }
    return Object.assign((voiceId: string) => ids.has(voiceId), {
      idOf: (given: string) => (ids.has(given) ? given : (byName.get(given.trim().toLowerCase()) ?? null)),
    });
  } catch {
    return null;
  }
}

/** What a batch record keeps of the check: the rows refused, and why each was. */
export function refusedRows(problems: readonly BatchProblem[]): { invalid: number[]; reasons: Record<string, string> } {
  return {
    invalid: problems.map((p) => p.row),
    reasons: Object.fromEntries(problems.map((p) => [String(p.row), p.message])),
  };
}
