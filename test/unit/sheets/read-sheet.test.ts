import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSheetFile, SheetRefusal, type SheetLimits } from '../../../electron/services/sheets/read-sheet';

// The corpus: files as Excel, Google Sheets, LibreOffice and scripts write them (make-sheets.py).
const corpus = (name: string) => join(import.meta.dirname, '..', '..', 'fixtures', 'sheets', name);
const LIMITS = { maxRows: 10_000 };
const GERMAN = 'Frühlingsangebot: 20 € Rabatt auf Größe M';
const FRENCH = 'Café crème, naïve façade — déjà vu';

const scratch = mkdtempSync(join(tmpdir(), 'sheets-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function refusal(path: string, limits: SheetLimits = LIMITS): Promise<SheetRefusal> {
  const error = await readSheetFile(path, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SheetRefusal);
  return error as SheetRefusal;
}

describe('spreadsheets as users have them', () => {
  it('reads German Excel\u2019s CSV: Windows-1252 with semicolons, € and umlauts intact', async () => {
    const table = await readSheetFile(corpus('excel-de-windows-1252-semicolon.csv'), LIMITS);
    expect(table.rows[0]).toEqual(['Script', 'Voice', 'Speed', 'File name']);
    expect(table.rows[1]).toEqual([GERMAN, 'Ava', '50%', 'spring-de']);
    expect(table.rows).toHaveLength(4);
    expect(table.readAs).toBe('a semicolon-separated file in Windows-1252 (Western European)');
  });

  it('reads Excel\u2019s "CSV UTF-8" (with a byte-order mark) and "Unicode Text" (UTF-16 with tabs)', async () => {
    const utf8 = await readSheetFile(corpus('excel-utf8-bom.csv'), LIMITS);
    expect(utf8.rows[0][0]).toBe('Script');
    expect(utf8.rows[2]).toEqual([FRENCH, 'Hugo', '60%', 'cafe-fr']);
    expect(utf8.readAs).toContain('UTF-8 with BOM');
    const unicode = await readSheetFile(corpus('excel-unicode-text.txt'), LIMITS);
    expect(unicode.rows[1]).toEqual([GERMAN, 'Ava', '50%', 'spring-de']);
    expect(unicode.readAs).toBe('a tab-separated file in UTF-16 LE (Excel\u2019s Unicode Text)');
    const noBom = await readSheetFile(corpus('utf16le-no-bom.tsv'), LIMITS);
    expect(noBom.rows[3]).toEqual(['Smörgåsbord för två', '', '', 'sv']);
  });

  it('reads UTF-8 without a mark in any script, with quoted commas, and Cyrillic in Windows-1251', async () => {
    const sheets = await readSheetFile(corpus('sheets-utf8.csv'), LIMITS);
    expect(sheets.rows.map((row) => row[0])).toEqual(['text', 'Hello, world', 'Привет, мир', 'こんにちは世界']);
    const cyrillic = await readSheetFile(corpus('windows-1251-semicolon.csv'), LIMITS);
    expect(cyrillic.rows[1]).toEqual(['Весенняя распродажа начинается сегодня', 'Ava']);
    expect(cyrillic.readAs).toContain('Windows-1251');
  });

  it('reads the first sheet of an .xlsx as Excel writes it: shared strings, a percentage, a date', async () => {
    const table = await readSheetFile(corpus('excel-spots.xlsx'), LIMITS);
    expect(table.rows[0]).toEqual(['Script', 'Voice', 'Speed', 'File name', 'Date']);
    expect(table.rows[1]).toEqual([GERMAN, 'Ava', '0.5', 'spring-de', '2026-04-01']);
    expect(table.rows[2][0]).toBe(FRENCH);
    expect(table.readAs).toBe('the sheet "Spots" of an Excel workbook');
  });

  it('refuses files that are not spreadsheets, naming what they are', async () => {
    expect((await refusal(corpus('song-renamed.csv'))).message).toBe(
      'This is an MP3 sound, not a spreadsheet: choose a CSV, TSV or .xlsx file.',
    );
    expect((await refusal(corpus('bare-mp3.csv'))).message).toContain('an MP3 sound');
    expect((await refusal(corpus('old-excel.xls'))).message).toBe(
      'This is an Excel 97–2003 workbook (.xls), not a spreadsheet: save it as .xlsx or as CSV and choose that.',
    );
    expect((await refusal(corpus('calc.ods'))).message).toContain('an OpenDocument spreadsheet (.ods)');
    const random = await refusal(corpus('random-bytes.csv'));
    expect(random.code).toBe('sheet-not-a-table');
    expect(random.message).toContain('binary data');
  });

  it('refuses an empty file, and states the row limit before reading past it', async () => {
    const empty = join(scratch, 'empty.csv');
    writeFileSync(empty, '');
    expect((await refusal(empty)).code).toBe('sheet-empty');
    const blank = join(scratch, 'blank.csv');
    writeFileSync(blank, '\r\n,,\r\n  \r\n');
    expect((await refusal(blank)).message).toBe('The file has no rows with anything in them.');
    const big = join(scratch, 'big.csv');
    writeFileSync(big, ['text', ...Array.from({ length: 30 }, (_, i) => `line ${i}`)].join('\n'));
    expect((await readSheetFile(big, { maxRows: 30 })).rows).toHaveLength(31);
    expect((await refusal(big, { maxRows: 29 })).message).toBe(
      'The file has more than 29 rows; one batch takes at most 29: split it into several files.',
    );
    expect((await refusal(big, { maxRows: 10, maxBytes: 100 })).code).toBe('sheet-too-big');
  });

  it('streams a 5 MB CSV whose multi-byte characters fall across read chunks', async () => {
    const path = join(scratch, 'five-mb.csv');
    const line = (i: number) => `"Zeile ${i}: Grüße aus Köln, 20 € — Привет",Ava,50%,row-${i}`;
    const count = (5 * 1024 * 1024) / line(0).length;
    writeFileSync(
      path,
      ['text,voice,rate,name', ...Array.from({ length: Math.ceil(count) }, (_, i) => line(i))].join('\r\n'),
    );
    const table = await readSheetFile(path, { maxRows: 100_000 });
    expect(table.rows).toHaveLength(Math.ceil(count) + 1);
    expect(table.rows.every((row, i) => i === 0 || row[0] === `Zeile ${i - 1}: Grüße aus Köln, 20 € — Привет`)).toBe(
      true,
    );
  });
});
