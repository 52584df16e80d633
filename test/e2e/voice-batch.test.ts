import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newStudioContext, screenshot } from './browser';
import { freezeWhen, restartableStudio } from './host-process';
import { watchErrors, type PageErrors } from './outage';
import { confirmPrice } from './price';
import { readLedgerJobs } from '../read-ledger';
import { HANG_GUARD_MS } from '../wait';

const studio = restartableStudio('studio-e2e-batch-');

/** The batch's jobs in the ledger. */
function batchJobs(): { row: number; phase: string }[] {
  return readLedgerJobs(studio.dataDir).flatMap((job) =>
    job.purpose?.type === 'batch-row' ? [{ row: job.purpose.row, phase: job.phase }] : [],
  );
}

/** Ledger jobs per batch row: a row sent twice would have two. */
function jobsPerRow(): Map<number, number> {
  const counts = new Map<number, number>();
  for (const { row } of batchJobs()) counts.set(row, (counts.get(row) ?? 0) + 1);
  return counts;
}

async function openVoices(url: string, errors: PageErrors): Promise<Page> {
  const context = await newStudioContext(studio.browser, { viewport: { width: 1440, height: 1100 } });
  const page = await context.newPage();
  errors.watch(page);
  await page.goto(`${url}#/voices`);
  await page.getByRole('region', { name: 'Batch voiceovers' }).waitFor();
  return page;
}

// 20 rows: 17 that can be sent and 3 that cannot (no script, a rate over 100 %, over 5,000 words).
const good = Array.from({ length: 17 }, (_, i) => `"Spot ${i + 1}: the spring sale starts now.",,,spot-${i + 1}`);
const csv = [
  'text,voice,rate,name',
  ...good.slice(0, 5),
  ',,,empty',
  ...good.slice(5, 10),
  '"Too fast.",,150%,fast',
  ...good.slice(10),
  `"${'word '.repeat(5001)}",,,long`,
].join('\n');

describe('Batch voiceovers in Chromium', () => {
  it('checks a 20-row CSV, sends the good rows, survives a host restart half way, finishes, and saves the files and manifest', async () => {
    // The page is closed before the host is stopped, so no outage window: any error fails the test.
    const errors = watchErrors();
    const first = await studio.start();
    const page = await openVoices(first.url, errors);
    const panel = page.getByRole('region', { name: 'Batch voiceovers' });
    // The library's first voice is the one rows without a voice use.
    await expect.poll(() => panel.textContent(), { timeout: HANG_GUARD_MS }).toContain('Rows without a voice use Ava');
    await panel
      .getByLabel('CSV file of the batch')
      .setInputFiles({ name: 'spring-spots.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect
      .poll(() => panel.getByTestId('batch-check-summary').textContent())
      .toContain('20 rows: 17 ready, 3 will not be sent');
    expect(await panel.textContent()).toContain('input_text cannot be empty');
    // The balance shows before the paid batch is sent.
    await expect.poll(() => panel.getByTestId('balance-before-job').textContent()).toMatch(/Balance: [\d,]+ credits/);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'voices-batch-check', { fullStage: true });
    await panel.getByRole('button', { name: 'Send 17 voiceovers' }).click();
    // Asked first, once: 17 paid jobs with their total, and the 3 rows with a problem named as not sent.
    const said = await confirmPrice(page);
    expect(said).toContain('3 rows with a problem will not be sent');
    await expect.poll(() => panel.getByTestId('batch-list').textContent()).toContain('spring-spots.csv');

    // Half way: the host is restarted (quit and started again) while rows are still being made.
    await expect.poll(() => jobsPerRow().size, { timeout: HANG_GUARD_MS }).toBeGreaterThanOrEqual(4);
    await page.context().close();
    // Stopped half way: the host is frozen at a moment with rows sent and rows still to finish, and
    // quits from there, rather than wherever a slow machine's stop happens to land.
    let completed = 0;
    await freezeWhen(first, 'a moment with 4 rows sent and fewer than 17 completed', () => {
      completed = batchJobs().filter((j) => j.phase === 'completed').length;
      return jobsPerRow().size >= 4 && completed < 17;
    });
    await studio.stop('SIGTERM');
    expect(completed).toBeLessThan(17);

    const again = await openVoices((await studio.start()).url, errors);
    const list = again.getByTestId('batch-list');
    await expect
      .poll(() => list.textContent(), { timeout: 90_000 })
      .toMatch(/Finished.*17 sent · 0 running · 17 done · 0 failed · 0 held · 3 refused · 20 rows/);
    expect([...jobsPerRow().values()]).toEqual(Array(17).fill(1));

    await list.getByRole('button', { name: 'spring-spots.csv' }).click();
    const rows = again.getByTestId('batch-rows');
    await rows.waitFor();
    const folder = join(studio.dataDir, 'Spring spots');
    await rows.getByLabel('Batch folder').fill(folder);
    await rows.getByRole('button', { name: 'Save files' }).click();
    await again.getByText(`17 files and manifest.csv in ${folder}`).waitFor({ timeout: HANG_GUARD_MS });
    const saved = readdirSync(folder).sort();
    expect(saved.filter((n) => n.endsWith('.mp3'))).toHaveLength(17);
    expect(saved).toContain('01-spot-1.mp3');
    const bytes = readFileSync(join(folder, 'manifest.csv'));
    // A byte-order mark first (trim() would drop it), so Excel reads the manifest as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const manifest = bytes.toString('utf8').trim().split(/\r?\n/);
    expect(manifest[0]).toBe(
      'sheet_row,name,text,voice,voice_name,rate,status,reason,file,duration_s,link,expiry,cost_credits',
    );
    // Refused rows say why, and voices have their names.
    const records = Papa.parse<Record<string, string>>(manifest.join('\n'), { header: true }).data;
    // Numbered as the spreadsheet numbers them (its header is row 1).
    expect(records.filter((r) => r.status === 'invalid').map((r) => [r.sheet_row, r.name, r.reason !== ''])).toEqual([
      ['7', 'empty', true],
      ['13', 'fast', true],
      ['21', 'long', true],
    ]);
    expect(manifest[1]).toContain(',Ava,');
    expect(manifest).toHaveLength(21);
    expect(manifest.filter((line) => line.includes(',completed,'))).toHaveLength(17);
    expect(manifest.filter((line) => line.includes(',invalid,'))).toHaveLength(3);
    await screenshot(again, 'voices-batch-done', { fullStage: true });
    expect(errors.unexpected()).toEqual([]);
  }, 300_000);
});
