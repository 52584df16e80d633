// Spreadsheets as marketers have them, picked in the Voices workspace: Excel's encodings and .xlsx read
// with their text intact, and a file that is not a table refused before anything can be sent.
import { join } from 'node:path';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';
import { bridgeCall, confirmPrice } from './price';
import { HANG_GUARD_MS } from '../wait';

const dir = mkdtempSync(join(tmpdir(), 'studio-e2e-sheets-'));
const corpus = (name: string) => join(import.meta.dirname, '..', 'fixtures', 'sheets', name);

describe('batch spreadsheets in Chromium', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    studio = await openStudio({ hash: '#/voices' });
    await studio.page.getByRole('region', { name: 'Batch voiceovers' }).waitFor();
  });
  afterAll(async () => {
    await studio?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pick = async (name: string, mimeType: string) => {
    const panel = studio.page.getByRole('region', { name: 'Batch voiceovers' });
    await panel
      .getByLabel('CSV file of the batch')
      .setInputFiles({ name, mimeType, buffer: readFileSync(corpus(name)) });
    return panel;
  };

  it('reads German Excel\u2019s Windows-1252 CSV, Excel\u2019s UTF-16 Unicode Text and an .xlsx with their text intact', async () => {
    const panel = await pick('excel-de-windows-1252-semicolon.csv', 'text/csv');
    await expect
      .poll(() => panel.getByTestId('batch-source').textContent())
      .toContain('read as a semicolon-separated file in Windows-1252');
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('3 rows: 3 ready');
    expect(await panel.textContent()).toContain('Frühlingsangebot: 20 € Rabatt auf Größe M');
    await panel.getByTestId('batch-check-summary').scrollIntoViewIfNeeded();
    await screenshot(studio.page, 'voices-batch-windows-1252', { fullStage: true });

    await pick('excel-unicode-text.txt', 'text/plain');
    await expect.poll(() => panel.getByTestId('batch-source').textContent()).toContain('UTF-16 LE');
    // The source line is set before the check answers: wait for the rows themselves.
    await expect.poll(() => panel.textContent()).toContain('Smörgåsbord för två');

    await pick('excel-spots.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    await expect
      .poll(() => panel.getByTestId('batch-source').textContent())
      .toContain('the sheet "Spots" of an Excel workbook');
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('2 rows');
    expect(await panel.textContent()).toContain('Café crème, naïve façade — déjà vu');
  });

  it('refuses an MP3 renamed to .csv before anything can be sent, and clears the previous file\u2019s rows', async () => {
    const panel = await pick('excel-de-windows-1252-semicolon.csv', 'text/csv');
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('3 ready');
    await pick('song-renamed.csv', 'text/csv');
    await expect.poll(() => panel.textContent()).toContain('song-renamed.csv: This is an MP3 sound, not a spreadsheet');
    expect(await panel.getByTestId('batch-check-summary').count()).toBe(0);
    expect(await panel.getByRole('button', { name: /^Send/ }).isDisabled()).toBe(true);
    await panel.getByRole('button', { name: /^Send/ }).scrollIntoViewIfNeeded();
    await screenshot(studio.page, 'voices-batch-refused', { fullStage: true });
    expect(studio.consoleErrors).toEqual([]);
  });

  it('asks which column holds what when the header names no script column, sends nothing before, and remembers the answer', async () => {
    const table = Buffer.from(
      'Werbetext;Sprecher;Notiz\r\nHallo zusammen.;Ava;intern\r\nBis bald.;Hugo;\r\n',
      'latin1',
    );
    const panel = studio.page.getByRole('region', { name: 'Batch voiceovers' });
    const choose = () =>
      panel
        .getByLabel('CSV file of the batch')
        .setInputFiles({ name: 'werbung.csv', mimeType: 'text/csv', buffer: table });
    await choose();
    await expect
      .poll(() => panel.getByTestId('batch-check-summary').textContent())
      .toContain('Nothing to send: no column is named as the script');
    expect(await panel.getByRole('button', { name: /^Send/ }).isDisabled()).toBe(true);
    const pick = async (label: string, option: string) => {
      await panel.getByLabel(label).click();
      await studio.page
        .locator('.n-base-select-option:visible')
        .filter({ hasText: new RegExp(`^${option}$`) })
        .last()
        .click();
    };
    await pick('Column of the script', 'Werbetext');
    await pick('Column of the voice', 'Sprecher');
    await panel.getByRole('button', { name: 'Use these columns' }).scrollIntoViewIfNeeded();
    await screenshot(studio.page, 'voices-batch-columns', { fullStage: true });
    await panel.getByRole('button', { name: 'Use these columns' }).click();
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('2 rows: 2 ready');
    expect(await panel.getByTestId('batch-columns').textContent()).toBe(
      'Columns: script from “Werbetext”, voice from “Sprecher”. Not used: “Notiz”.',
    );
    // The same layout again: the columns the user gave are used at once.
    await choose();
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('2 rows: 2 ready');
    expect(studio.consoleErrors).toEqual([]);
  });

  it('imports a 5 MB CSV through the page with no body limit, its 8,000 rows checked by the host', async () => {
    const script = 'Sommerschlussverkauf: alles muss raus, jede Größe, jede Farbe — nur diese Woche. '.repeat(8);
    const body = ['text,voice,name', ...Array.from({ length: 8000 }, (_, i) => `"${script}",Ava,spot-${i + 1}`)].join(
      '\r\n',
    );
    expect(Buffer.byteLength(body)).toBeGreaterThan(5 * 1024 * 1024);
    const panel = studio.page.getByRole('region', { name: 'Batch voiceovers' });
    await panel
      .getByLabel('CSV file of the batch')
      .setInputFiles({ name: 'grosse-kampagne.csv', mimeType: 'text/csv', buffer: Buffer.from(body) });
    await expect
      .poll(() => panel.getByTestId('batch-check-summary').textContent(), { timeout: HANG_GUARD_MS })
      .toContain('8000 rows: 8000 ready');
    expect(await panel.getByRole('button', { name: 'Send 8000 voiceovers' }).isEnabled()).toBe(true);
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('pauses a 200-row batch once rows are out: the rows not sent stay unsent, and the table counts them as held', async () => {
    const { page } = studio;
    const panel = page.getByRole('region', { name: 'Batch voiceovers' });
    await panel
      .getByLabel('Batch lines')
      .fill(Array.from({ length: 200 }, (_, i) => `Zeile ${i + 1}: das Frühjahrsangebot.`).join('\n'));
    await panel.getByRole('button', { name: 'Check rows' }).click();
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('200 rows: 200 ready');
    await panel.getByRole('button', { name: 'Send 200 voiceovers' }).click();
    // Asked first: 200 paid jobs, at the sandbox's published price.
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain('Send for 200 credits');
    await page.getByTestId('price-confirm-send').click();
    const newest = panel.getByTestId('batch-list').locator('li').first();
    const sent = async () => Number(/(\d+) sent/.exec((await newest.textContent()) ?? '')?.[1] ?? -1);
    // Paused once a few rows are out (the "after 10 s"; here a point the test can wait for).
    await expect.poll(sent, { timeout: HANG_GUARD_MS }).toBeGreaterThanOrEqual(4);
    await newest.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => newest.textContent(), { timeout: HANG_GUARD_MS }).toMatch(/Paused.* 0 running/);
    const out = await sent();
    expect(await newest.textContent()).toContain(
      `${out} sent · 0 running · ${out} done · 0 failed · ${200 - out} held · 0 refused · 200 rows`,
    );
    // The ledger agrees: only the rows counted as sent have jobs.
    const jobs = await page.evaluate(async () => {
      const post = (name: string) =>
        fetch(`/bridge/call/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '[]',
        }).then((r) => r.json());
      const [{ value: batches }, { value: list }] = await Promise.all([post('batches.list'), post('jobs.list')]);
      return (list as { purpose: { type: string; batchId?: string } }[]).filter(
        (j) => j.purpose.type === 'batch-row' && j.purpose.batchId === (batches as { id: string }[])[0].id,
      ).length;
    });
    expect(jobs).toBe(out);
    expect(out).toBeLessThan(200);
    await newest.getByRole('button', { name: /Pasted lines/ }).click();
    await panel.getByTestId('batch-rows').scrollIntoViewIfNeeded();
    await screenshot(page, 'voices-batch-paused', { fullStage: true });
    await newest.getByRole('button', { name: 'Cancel the rest' }).click();
    await expect.poll(() => newest.textContent()).toContain(`${200 - out} cancelled`);
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('works in the table: edits a cell, deletes and restores a row, plays a result, remakes one row with a change, and the manifest keeps non-Latin text (bytes checked)', async () => {
    const { page } = studio;
    const panel = page.getByRole('region', { name: 'Batch voiceovers' });
    await panel
      .getByLabel('Batch lines')
      .fill('Привет, это первый дубль.\n你好，这是结尾。\nΤρίτη γραμμή, για διαγραφή.');
    await panel.getByRole('button', { name: 'Check rows' }).click();
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('3 rows: 3 ready');
    // An edit is checked again by the host: an empty script is refused, a new one is ready.
    const editScript = async (row: number, text: string) => {
      await panel.getByRole('button', { name: `Edit script of sheet row ${row}` }).click();
      await panel.getByLabel(`New script of sheet row ${row}`).fill(text);
      await panel.getByLabel(`New script of sheet row ${row}`).press('Enter');
    };
    await editScript(2, '');
    await expect
      .poll(() => panel.getByTestId('batch-check-summary').textContent())
      .toContain('3 rows: 2 ready, 1 will not be sent');
    await editScript(2, '你好，这是新的结尾。');
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('3 rows: 3 ready');
    await panel.getByRole('button', { name: 'Delete sheet row 3' }).click();
    await expect
      .poll(() => panel.getByTestId('batch-check-summary').textContent())
      .toContain('2 rows: 2 ready. You edited 1 and deleted 1 row');
    await panel.getByRole('button', { name: 'Undo deletion of sheet row 3' }).click();
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('3 rows: 3 ready');
    await panel.getByRole('button', { name: 'Delete sheet row 3' }).click();
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('2 rows: 2 ready');
    await panel.getByTestId('batch-check-table').scrollIntoViewIfNeeded();
    await screenshot(page, 'voices-batch-edited', { fullStage: true });
    await panel.getByRole('button', { name: 'Send 2 voiceovers' }).click();
    await confirmPrice(page);
    const list = panel.getByTestId('batch-list');
    await expect
      .poll(() => list.textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/Finished.*2 sent · 0 running · 2 done · 0 failed · 0 held · 0 refused · 2 rows/);
    await list
      .getByRole('button', { name: /Pasted lines/ })
      .first()
      .click();
    const rows = panel.getByTestId('batch-rows');
    expect(await rows.textContent()).toContain('你好，这是新的结尾。');
    await rows.getByRole('button', { name: 'Listen to sheet row 1' }).click();
    const play = rows.getByTestId('batch-player').getByRole('button', { name: 'Play sheet row 1' });
    await expect.poll(() => play.isEnabled(), { timeout: HANG_GUARD_MS }).toBe(true);
    await play.click();
    await rows.getByTestId('batch-player').getByRole('button', { name: 'Stop sheet row 1' }).waitFor();
    await rows.scrollIntoViewIfNeeded();
    await screenshot(page, 'voices-batch-listen', { fullStage: true });

    const folder = join(dir, 'takes');
    await rows.getByLabel('Batch folder').fill(folder);
    await rows.getByRole('button', { name: 'Save files' }).click();
    await page.getByText(`2 files and manifest.csv in ${folder}`).waitFor({ timeout: HANG_GUARD_MS });
    const bytes = () => readFileSync(join(folder, 'manifest.csv'));
    // Excel needs the BOM, then UTF-8: "Привет" and "你好" as their own bytes, not a code page's.
    expect([...bytes().subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes().includes(Buffer.from('Привет, это первый дубль.', 'utf8'))).toBe(true);
    expect(bytes().includes(Buffer.from([0xe4, 0xbd, 0xa0, 0xe5, 0xa5, 0xbd]))).toBe(true);
    const manifest = () =>
      Papa.parse<Record<string, string>>(
        bytes()
          .toString('utf8')
          .replace(/^\uFEFF/, ''),
        { header: true, skipEmptyLines: true },
      ).data;
    const before = manifest();
    expect(before.map((r) => [r.sheet_row, r.text, r.file])).toEqual([
      ['1', 'Привет, это первый дубль.', '1-Привет, это первый дубль.mp3'],
      ['2', '你好，这是新的结尾。', '2-你好，这是新的结尾。.mp3'],
    ]);
    for (const line of before) expect(Number(line.duration_s)).toBeGreaterThan(0);

    // Row 1 made again with a new script, after asking: a new paid job for that row only.
    const completedSpeech = async () =>
      (
        (await page.evaluate(() =>
          fetch('/bridge/call/jobs.list', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '[]',
          }).then((r) => r.json()),
        )) as { value: { kind: string; phase: string }[] }
      ).value.filter((j) => j.kind === 'tts' && j.phase === 'completed').length;
    const madeBefore = await completedSpeech();
    // Row 1 as the host holds it: the list's newest batch (this one), its row's newest job.
    const batchId = (await bridgeCall<{ id: string }[]>(page, 'batches.list'))[0].id;
    const rowOne = async () =>
      (
        await bridgeCall<{ rows: { row: number; state: string; jobId: string | null }[] }>(
          page,
          'batches.rows',
          batchId,
          {
            offset: 0,
            limit: 1,
            filter: 'all',
          },
        )
      ).rows.find((r) => r.row === 0);
    const firstTake = (await rowOne())?.jobId;
    expect(firstTake).toBeTruthy();
    await rows.getByRole('button', { name: 'Edit sheet row 1' }).click();
    await rows.getByLabel('Script of the row').fill('Привет, это второй дубль.');
    await rows.getByRole('button', { name: 'Make it again with this change…' }).click();
    const ask = page.getByRole('dialog');
    await expect.poll(() => ask.textContent()).toMatch(/Send for 1 credit/);
    await screenshot(page, 'voices-batch-remake', { fullStage: true });
    await ask.getByTestId('price-confirm-send').click();
    // The row has its new take once its new job is the row's and completed; the list's "Finished" could
    // still be the text from before the remake, and Save must not run before the row has the new take.
    await expect
      .poll(
        async () => {
          const row = await rowOne();
          return row?.state === 'completed' && row.jobId !== firstTake;
        },
        { timeout: HANG_GUARD_MS },
      )
      .toBe(true);
    await expect.poll(() => list.textContent(), { timeout: HANG_GUARD_MS }).toMatch(/Finished.*2 done/);
    await expect.poll(completedSpeech, { timeout: HANG_GUARD_MS }).toBe(madeBefore + 1);
    await rows.getByRole('button', { name: 'Save files' }).click();
    // The new take's link and script, once the second Save has written its manifest; row 2 is untouched.
    await expect
      .poll(
        () => {
          const link = manifest()[0].link;
          return link.startsWith('http') && link !== before[0].link;
        },
        { timeout: HANG_GUARD_MS },
      )
      .toBe(true);
    expect(manifest()[0].text).toBe('Привет, это второй дубль.');
    expect(manifest()[1].link).toBe(before[1].link);
    // The new take replaces the row's file: its new name, and the first take's file gone from the folder.
    expect(manifest().map((r) => r.file)).toEqual(['1-Привет, это второй дубль.mp3', before[1].file]);
    expect(readdirSync(folder).sort()).toEqual(
      ['1-Привет, это второй дубль.mp3', before[1].file, 'manifest.csv'].sort(),
    );
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);
});
