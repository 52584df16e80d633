// A sample sheet the user picks in the editor, read in the page: it only shows rows on the canvas, and
// sends nothing. A campaign reads its spreadsheet in the host (services/sheets: every encoding the
// batch reader knows); here UTF-8, UTF-16 with its mark and Windows-1252 cover the files people have.
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/browser';

/** Bigger than any sample anyone steps through by hand; a campaign takes the whole file. */
const MAX_SAMPLE_BYTES = 20 * 1024 * 1024;

/** The file's text: UTF-16 by its mark, UTF-8 when it is valid, else Windows-1252 (Excel's CSV on Windows). */
export function decodeSheetText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Cells of delimited text (comma, semicolon or tab, found by Papa), blank lines left out. */
export function parseSheetText(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  return parsed.data.map((line) => line.map((cell) => String(cell ?? '')));
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).trim();
}

/** The cells of a picked file, header first; throws with a reason fit to show. */
export async function readSampleSheet(file: File): Promise<string[][]> {
  if (file.size > MAX_SAMPLE_BYTES)
    throw new Error(
      `${file.name} is ${(file.size / 2 ** 20).toFixed(0)} MB; a sample sheet for the editor is at most 20 MB (Campaigns reads the whole file).`,
    );
  const bytes = new Uint8Array(await file.arrayBuffer());
  // .xlsx is a ZIP: "PK" first.
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    try {
      const rows = await readSheet(file);
      return rows.map((row) => row.map(cellText)).filter((row) => row.some((cell) => cell !== ''));
    } catch {
      throw new Error(`${file.name} is not an Excel workbook the studio can read: save it as .xlsx or CSV.`);
    }
  }
  const lines = parseSheetText(decodeSheetText(bytes));
  if (lines.length === 0) throw new Error(`${file.name} has no rows.`);
  return lines;
}
