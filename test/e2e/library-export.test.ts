// Issue 68's last stop in Chromium through a web host process: a Library of more jobs than any list of
// ids the bridge takes (MAX_JOBS_AT_ONCE) is exported whole as CSV, the host writing it and the
// browser saving it, and "Download…" of all of it previews its first names and the whole count.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_JOBS_AT_ONCE } from '../../electron/common/bridge/downloads';
import { archiveSettingsSpec } from '../../electron/services/downloads/archive';
import { openRecordsDatabase } from '../../electron/services/records/database';
import { jobColumns, PUT_JOB } from '../../electron/services/records/sqlite-ledger';
import { createConfStoreFactory } from '../../electron/services/store/conf-store';
import { jobId, madeUpJob } from '../unit/downloads/selection-fixture';
import { HANG_GUARD_MS } from '../wait';
import { newStudioContext, screenshot } from './browser';
import { restartableStudio } from './host-process';
import { watchErrors } from './outage';

const studio = restartableStudio('studio-e2e-export-');
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const NOW = Date.now();
const MANY = 25_500;

/** MANY completed jobs the reactor has seen to already (nothing is archived or fetched), newest first. */
function seed(dataDir: string): void {
  createConfStoreFactory(dataDir, { log: silent, notify: () => undefined })(archiveSettingsSpec).set({
    ...archiveSettingsSpec.defaults,
    enabled: false,
  });
  const database = openRecordsDatabase({ dataDir });
  const put = database.db.prepare(PUT_JOB);
  database.db.transaction(() => {
    for (let n = 0; n < MANY; n += 1) {
      const job = {
        ...madeUpJob(jobId(n)),
        summary: `Avatar video · "Clip ${n}"`,
        createdAt: NOW - (n + 1) * 1000,
        updatedAt: NOW,
        finishedAt: NOW - 1000,
        expiresAt: NOW + 100 * 3_600_000,
        reactedAt: NOW,
      };
      put.run(job.id, JSON.stringify(job), ...jobColumns(job));
    }
  })();
  database.close();
}

describe('a Library larger than a list of ids', () => {
  it('exports every job as CSV through the web host, and previews a download of all of them', async () => {
    expect(MANY).toBeGreaterThan(MAX_JOBS_AT_ONCE);
    seed(studio.dataDir);
    const errors = watchErrors();
    const host = await studio.start();
    const context = await newStudioContext(studio.browser, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    errors.watch(page);
    await page.goto(`${host.url}#/library`);
    await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
    await page.locator('tr[data-job-id]').first().waitFor({ timeout: HANG_GUARD_MS });

    // The end is said as the browser starts to fetch the file, for a few seconds: watched for from the click.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: HANG_GUARD_MS }),
      page.getByText(`Exported ${MANY.toLocaleString('en')} jobs as shown.`).waitFor({ timeout: HANG_GUARD_MS }),
      page.getByTestId('export-manifest').click(),
    ]);
    await screenshot(page, 'library-export-25k-1280');
    expect(download.suggestedFilename()).toMatch(/^library-\d{4}-\d{2}-\d{2}\.csv$/);
    const saved = join(studio.dataDir, 'saved-export.csv');
    await download.saveAs(saved);
    const lines = readFileSync(saved, 'utf8').split('\r\n').slice(0, -1);
    expect(lines).toHaveLength(MANY + 1);
    expect(lines[1]).toMatch(/^job-000000,r-job-000000,,Avatar video,"Avatar video · ""Clip 0""",Completed,/);
    expect(lines.at(-1)).toMatch(/^job-025499,/);
    // The host's copy was fetched once and is gone.
    const again = await page.request.get(download.url());
    expect(again.status()).toBe(404);

    await page.locator('thead .n-checkbox').click();
    await page.getByTestId('download-selected').click();
    const preview = page.getByTestId('download-preview');
    await expect
      .poll(() => preview.textContent(), { timeout: HANG_GUARD_MS })
      .toContain(`The first 200 of ${MANY.toLocaleString('en')} jobs give 200 files`);
    expect(await preview.textContent()).toContain(`… and ${(MANY - 4).toLocaleString('en')} more jobs`);
    await screenshot(page, 'library-download-all-25k-1280');
    expect(errors.unexpected()).toEqual([]);
  }, 300_000);
});
