import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { sheetFileKind, looksBinary } from './file-kind';
import { decoderFor, detectEncoding, type TextEncoding } from './text-encoding';

/** A spreadsheet's cells as text, every row including the first (which may be a header). */
export interface SheetTable {
  rows: string[][];
  /**
   * Each row's number as the spreadsheet program numbers it (1-based, the header and the blank lines
   * left out of `rows` counted; a cell holding a line break is still one row), in the order of `rows`.
   */
  lines: number[];
  /** How it was read, in words: "a semicolon-separated CSV in Windows-1252 (Western European)". */
  readAs: string;
}

export interface SheetLimits {
  /** Rows past this refuse the file (stated up front, so a huge file fails at once, not after minutes). */
  maxRows: number;
  /** Bytes past this refuse the file before anything is read. Default 100 MB. */
  maxBytes?: number;
}

/** Why a chosen file cannot be read as a spreadsheet, in words fit to show as they are. */
export class SheetRefusal extends Error {
  constructor(
    message: string,
    readonly code: 'sheet-not-a-table' | 'sheet-too-big' | 'sheet-unreadable' | 'sheet-empty',
  ) {
    super(message);
    this.name = 'SheetRefusal';
  }
}

const SAMPLE_BYTES = 64 * 1024;
/** The largest spreadsheet taken in: far above any real batch, low enough to refuse a mistaken video. */
export const SHEET_MAX_BYTES = 100 * 1024 * 1024;
const DELIMITERS: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'vertical bar' };

/**
 * Reads a CSV, TSV or .xlsx file as users have them: text in UTF-8 (with or without a byte-order
 * mark), UTF-16 or a single-byte code page, any of the usual separators; the first sheet of a workbook
 * with data. Anything else (another kind of file, an old .xls, text that will not decode) is refused
 * with what it is. Text files are streamed: only the rows kept are in memory.
 */
export async function readSheetFile(path: string, limits: SheetLimits): Promise<SheetTable> {
  const name = extname(path).toLowerCase();
  const { size } = await stat(path);
  const maxBytes = limits.maxBytes ?? SHEET_MAX_BYTES;
  if (size > maxBytes)
    throw new SheetRefusal(
      `The file is ${megabytes(size)}; a spreadsheet here can be at most ${megabytes(maxBytes)}.`,
      'sheet-too-big',
    );
  if (size === 0) throw new SheetRefusal('The file is empty.', 'sheet-empty');
  const head = await firstBytes(path, SAMPLE_BYTES);
  const kind = sheetFileKind(head);
  if (kind.kind === 'refused')
    throw new SheetRefusal(`This is ${kind.what}, not a spreadsheet: ${kind.advice}.`, 'sheet-not-a-table');
  const table =
    kind.kind === 'xlsx'
      ? await readWorkbook(path, limits)
      : await readText(path, head, size <= SAMPLE_BYTES, name === '.tsv' || name === '.tab', limits);
  if (table.rows.length === 0) throw new SheetRefusal('The file has no rows with anything in them.', 'sheet-empty');
  return table;
}

async function readText(
  path: string,
  head: Buffer,
  whole: boolean,
  tabs: boolean,
  limits: SheetLimits,
): Promise<SheetTable> {
  const detected = detectEncoding(head, whole);
  if (!detected)
    throw new SheetRefusal(
      'The text of this file is in an encoding the studio cannot tell; save it as "CSV UTF-8" and choose that.',
      'sheet-unreadable',
    );
  const decoder = decoderFor(detected.encoding);
  const sampleText = decoder.write(head.subarray(detected.skip)) + (whole ? (decoder.end() ?? '') : '');
  if (looksBinary(sampleText))
    throw new SheetRefusal(
      'This file holds binary data, not text: choose a CSV, TSV or .xlsx file.',
      'sheet-not-a-table',
    );
  const delimiter = tabs ? '\t' : guessDelimiter(sampleText);
  const rows: string[][] = [];
  const lines: number[] = [];
  let record = 0;
  let tooMany = false;
  await new Promise<void>((resolve, reject) => {
    Papa.parse(decodedStream(path, detected.skip, detected.encoding), {
      delimiter,
      // Blank lines are read (and left out below) so that every record counts toward the row numbers.
      skipEmptyLines: false,
      step: (result, parser) => {
        record += 1;
        const cells = (result.data as unknown as string[]).map((cell) => cell.trim());
        if (cells.every((cell) => cell === '')) return;
        if (rows.length >= limits.maxRows + 1) {
          tooMany = true;
          parser.abort();
          return;
        }
        rows.push(cells);
        lines.push(record);
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  });
  if (tooMany) throw tooManyRows(limits.maxRows);
  return {
    rows,
    lines,
    readAs: `a ${tabs ? 'tab-separated' : `${DELIMITERS[delimiter]}-separated`} file in ${detected.encoding.label}`,
  };
}

function decodedStream(path: string, skip: number, encoding: TextEncoding): Readable {
  const decoder = decoderFor(encoding);
  const bytes = createReadStream(path, { start: skip });
  return Readable.from(
    (async function* () {
      for await (const chunk of bytes) {
        const text = decoder.write(chunk as Buffer);
        if (text) yield text;
      }
      const rest = decoder.end();
      if (rest) yield rest;
    })(),
    { objectMode: false, encoding: 'utf8' },
  );
}

/** The separator that splits the first lines into the most equal, non-trivial columns. */
function guessDelimiter(sample: string): string {
  const lines = sample
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim() !== '')
    .slice(0, 20);
  let best = ',';
  let bestScore = 0;
  for (const candidate of Object.keys(DELIMITERS)) {
    const counts = lines.map((line) => Papa.parse<string[]>(line, { delimiter: candidate }).data[0]?.length ?? 1);
    if (counts.length === 0 || counts[0] < 2) continue;
    const consistent = counts.filter((n) => n === counts[0]).length / counts.length;
    const score = consistent * counts[0];
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

async function readWorkbook(path: string, limits: SheetLimits): Promise<SheetTable> {
  let sheets: Awaited<ReturnType<typeof readXlsxFile>>;
  try {
    sheets = await readXlsxFile(path);
  } catch {
    throw new SheetRefusal(
      'This ZIP file is not an Excel workbook the studio can read: save it as .xlsx or as CSV and choose that.',
      'sheet-unreadable',
    );
  }
  // The reader gives every row from the sheet's first, empty ones included: a row's place is its number.
  const withData = sheets.map((s) => {
    const numbered = s.data
      .map((row, i) => ({ cells: row.map(cellText), line: i + 1 }))
      .filter((row) => row.cells.some((cell) => cell !== ''));
    return { name: s.sheet, rows: numbered.map((r) => r.cells), lines: numbered.map((r) => r.line) };
  });
  const first = withData.find((s) => s.rows.length > 0);
  if (!first) return { rows: [], lines: [], readAs: 'an Excel workbook' };
  if (first.rows.length > limits.maxRows + 1) throw tooManyRows(limits.maxRows);
  const others = withData.filter((s) => s !== first && s.rows.length > 0).length;
  return {
    rows: first.rows,
    lines: first.lines,
    readAs: `the sheet "${first.name}" of an Excel workbook${others ? ` (${others} other sheet${others === 1 ? '' : 's'} with data not read)` : ''}`,
  };
}

/** A cell as the person sees it: dates as dates, true/false as Excel writes them, numbers in full. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value).trim();
}

function tooManyRows(maxRows: number): SheetRefusal {
  return new SheetRefusal(
    `The file has more than ${maxRows.toLocaleString('en')} rows; one batch takes at most ${maxRows.toLocaleString('en')}: split it into several files.`,
    'sheet-too-big',
  );
}

async function firstBytes(path: string, count: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(count);
    const { bytesRead } = await handle.read(buffer, 0, count, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
