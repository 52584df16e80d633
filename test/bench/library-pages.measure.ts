// The paged Library on a large folder, measured in Chromium through the web host: how long until its
// first rows and its counts show, a sort by Cost, the "Not saved" filter, a scrollbar dragged to the
// middle, select-all, and what the page holds (its JS heap, the rows it rendered) afterwards.
// Run alone: node --import tsx test/bench/library-pages.measure.ts [jobs]   (default 100,000).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { openLedger } from '../../electron/services/records/open-ledger';
import { CHROMIUM_FLAGS, chromiumPath } from '../e2e/chromium';
import { startHostProcess, stopHostProcess } from '../e2e/host-process';

const JOBS = Number(process.argv[2] ?? 100_000);
const DAY = 86_400_000;

async function seededFolder(count: number): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'measure-library-pages-'));
  const ledger = openLedger(dataDir);
  const now = Date.now();
  for (let i = 0; i < count; i += 1) {
    const failed = i % 17 === 0;
    const record: JobRecord = {
      id: `job-${String(i).padStart(7, '0')}`,
      kind: i % 3 === 0 ? 'avatar-video' : 'tts',
      phase: failed ? 'failed' : 'completed',
      remoteId: `remote-${i}`,
      connectionId: 'remote',
      connectionName: 'Remote',
      projectId: i % 5 === 0 ? null : `project-${i % 7}`,
      summary: `Speech · "line ${i}"`,
      requestHash: `h${i}`,
      request: { voice_id: 'ava', input_text: `Line ${i} of the catalogue.` },
      createdAt: now - (i + 1) * 1000,
      updatedAt: now,
      finishedAt: now - 500,
      expiresAt: failed ? null : now - (i + 1) * 1000 + 7 * DAY,
      deadlineAt: now,
      remoteStatus: failed ? 4 : 3,
      resultUrl: failed ? null : `https://results.example.test/${i}.mp3`,
      costEstimate: null,
      chargedCredits: failed ? 0 : (i % 13) + 1,
      error: null,
      answer: null,
      polls: 1,
      purpose: { type: 'plain' },
      reactedAt: now,
    };
    void ledger.put(record);
    if (i % 5000 === 4999) await ledger.flush();
  }
  await ledger.flush();
  return dataDir;
}

const firstRowId = (page: Page) => page.locator('tr[data-job-id]').first().getAttribute('data-job-id');

/** ms until `changed` holds, polled every frame. */
async function timed(page: Page, act: () => Promise<unknown>, changed: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  await act();
  while (!(await changed())) await page.waitForTimeout(10);
  return Math.round(performance.now() - start);
}

async function main(): Promise<void> {
  console.log(
    `Machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}; ${JOBS.toLocaleString('en')} jobs`,
  );
  let t = performance.now();
  const dataDir = await seededFolder(JOBS);
  console.log(`seeded in ${Math.round(performance.now() - t)} ms`);
  t = performance.now();
  const host = await startHostProcess(dataDir);
  console.log(`host started in ${Math.round(performance.now() - t)} ms`);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    const open = await timed(
      page,
      () => page.goto(`${host.url}#/library`),
      async () =>
        (await page.locator('tr[data-job-id]').count()) > 0 &&
        ((await page.getByLabel('Show jobs').textContent()) ?? '').includes(`All ${JOBS}`),
    );
    console.log(`first rows and counts: ${open} ms (first row ${await firstRowId(page)})`);

    const before = await firstRowId(page);
    const sort = await timed(
      page,
      () => page.locator('th', { hasText: 'Cost' }).click(),
      async () => (await firstRowId(page)) !== before,
    );
    console.log(`sort by Cost: ${sort} ms (first row ${await firstRowId(page)})`);

    // Nothing is saved in this folder: "Not saved" leaves every completed job, and the tabs count them.
    const tabs = () => page.getByLabel('Show jobs').textContent();
    const counts = await tabs();
    const notSaved = await timed(
      page,
      () => page.getByTestId('filter-not-saved').click(),
      async () => (await tabs()) !== counts,
    );
    console.log(`"Not saved": ${notSaved} ms; ${await tabs()}`);
    await page.getByTestId('filter-not-saved').click();
    await page.locator('th', { hasText: 'Cost' }).click();
    await page.locator('th', { hasText: 'Cost' }).click();
    await page.waitForTimeout(500);

    const top = await firstRowId(page);
    const middle = await timed(
      page,
      () => page.getByTestId('jobs-window').evaluate((el) => (el.scrollTop = el.scrollHeight / 2)),
      async () => (await firstRowId(page)) !== top && !(await page.locator('.n-data-table--loading').count()),
    );
    console.log(`scrollbar to the middle: ${middle} ms (first row ${await firstRowId(page)})`);

    const selectAll = await timed(
      page,
      () => page.locator('thead .n-checkbox').first().click(),
      async () => ((await page.getByTestId('download-selected').textContent()) ?? '').includes(`(${JOBS})`),
    );
    console.log(`select all: ${selectAll} ms`);
    const held = await page.evaluate(() => ({
      heapMB: Math.round(
        ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 1e6,
      ),
      rows: document.querySelectorAll('tr[data-job-id]').length,
    }));
    console.log(`page heap ${held.heapMB} MB, ${held.rows} rows rendered`);
  } finally {
    await browser.close();
    await stopHostProcess(host, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
