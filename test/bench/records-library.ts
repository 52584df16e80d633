// The Library over a large ledger, as an editor uses it, in Chromium through the web host: the shell, the
// first rows after the Library is clicked, then the longest main-thread task (a PerformanceObserver of long
// tasks in the page) while sorting, filtering, searching, scrolling to the end of the list and starting a
// download of everything shown; and the page's JavaScript heap at the end.
// BENCH_RECORDS_PROFILE=DIR profiles the page through each step (page-profile.ts); BENCH_RECORDS_SHOTS=DIR
// keeps a screenshot of the Library opened and scrolled to the end.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningHost } from './records-processes';
import { WATCH_LONG_TASKS, longestSince } from './long-tasks';
import { pageProfiler } from './page-profile';

export interface LibraryFigures {
  /** From the host's launch to the workspace navigation drawn. */
  shellS: number;
  firstRowsS: number;
  longestTaskMs: Record<'open' | 'sort' | 'filter' | 'search' | 'scroll to end', number>;
  /** The longest task in the first 5 s of a download of every job, or why none could start. */
  downloadAll: number | string;
  /** Seconds from the Download click to the first bytes written in the folder (null: not looked for; Infinity: none in 60 s). */
  firstBytesS: number | null;
  pageHeapMb: number;
}

export interface LibraryOptions {
  /**
   * A studio making other jobs meanwhile (a campaign running): its newest rows keep coming, so a step
   * has settled once its rows changed and a moment passed, and the All tab's count is whatever it is.
   */
  busy?: boolean;
  /** Time the Download click to the first bytes written in `saveTo`. */
  firstBytes?: boolean;
}

/** A hang guard only, for the first bytes of a download. */
const FIRST_BYTES_GUARD_MS = 60_000;

/** Bytes of every file under `dir` (its partly written downloads among them). */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

/** A hang guard only. */
const GUARD_MS = 180_000;
/** The rows on screen unchanged this long: the page has done what the step asked. */
const SETTLED_MS = 750;

/** The ids of the rows drawn now, in order. */
const shownIds = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('tr[data-job-id]')].map((r) => r.getAttribute('data-job-id')).join(),
  );

/**
 * Waits until the rows drawn differ from `before` (when given) and then stay the same for SETTLED_MS;
 * in a busy studio (rows keep coming) until they differ, then SETTLED_MS more.
 */
async function settledRows(page: Page, before?: string, busy = false): Promise<void> {
  const started = Date.now();
  let last = await shownIds(page);
  let since = Date.now();
  while (Date.now() - started < GUARD_MS) {
    await page.waitForTimeout(100);
    const now = await shownIds(page);
    if (busy && (before === undefined ? now !== '' : now !== before)) return page.waitForTimeout(SETTLED_MS);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if ((before === undefined ? now !== '' : now !== before) && Date.now() - since >= SETTLED_MS) return;
  }
  throw new Error('the Library did not settle');
}

export async function measureLibrary(
  browser: Browser,
  host: RunningHost,
  jobs: number,
  saveTo: string,
  options: LibraryOptions = {},
): Promise<LibraryFigures> {
  const settled = (page: Page, before?: string) => settledRows(page, before, options.busy);
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(WATCH_LONG_TASKS);
  const page = await context.newPage();
  const profile = await pageProfiler(browser, context, page, options.busy ? `busy-${jobs}` : String(jobs));
  try {
    const opened = performance.now();
    await page.goto(host.url, { timeout: GUARD_MS });
    await page.locator('nav[aria-label="Workspaces"]').waitFor({ timeout: GUARD_MS });
    const shellS = host.toReady + (performance.now() - opened) / 1000;
    await page.waitForLoadState('networkidle', { timeout: GUARD_MS });
    await longestSince(page);
    await profile.step('shell');

    const clicked = performance.now();
    await page.locator('nav[aria-label="Workspaces"]').getByText('Library', { exact: true }).click();
    await page.locator('tr[data-job-id]').first().waitFor({ timeout: GUARD_MS });
    const firstRowsS = (performance.now() - clicked) / 1000;
    const all = options.busy
      ? page.getByText(/^All \d/)
      : page.getByText(`All ${jobs.toLocaleString('en-US')}`).or(page.getByText(`All ${jobs}`));
    await all.first().waitFor({ timeout: GUARD_MS });
    await settled(page);
    const open = await longestSince(page);
    await profile.step('open');
    await screenshot(page, options.busy ? `busy-${jobs}-open` : `${jobs}-open`);

    let before = await shownIds(page);
    await page.locator('th').filter({ hasText: 'Kind' }).first().click();
    await settled(page, before);
    const sort = await longestSince(page);
    await profile.step('sort');

    const searchBox = page.getByPlaceholder('Search requests or projects');
    before = await shownIds(page);
    await searchBox.fill('customer 123');
    await settled(page, before);
    const search = await longestSince(page);
    await profile.step('search');
    await searchBox.fill('');
    await settled(page);
    await longestSince(page);
    await profile.step('search-cleared');

    before = await shownIds(page);
    await page
      .getByText(/^Problems/)
      .first()
      .click();
    await settled(page, before);
    const filter = await longestSince(page);
    await profile.step('filter');

    // Back to every job, then to the end of the list.
    await page.getByText(/^All /).first().click();
    await settled(page);
    await longestSince(page);
    await profile.step('all-again');
    before = await shownIds(page);
    await page.evaluate(() => {
      const list = document.querySelector('[data-testid="jobs-window"]');
      if (list) list.scrollTop = list.scrollHeight;
    });
    await settled(page, before);
    const scrollToEnd = await longestSince(page);
    await profile.step('scroll-to-end');
    await screenshot(page, options.busy ? `busy-${jobs}-end` : `${jobs}-end`);

    await page.locator('thead .n-checkbox').first().click();
    const download = page.getByTestId('download-selected');
    await page.waitForTimeout(SETTLED_MS);
    let downloadAll: number | string;
    let firstBytesS: number | null = null;
    if (await download.isDisabled()) {
      // Not offered for this many: the figure is what the button says instead.
      downloadAll = `not offered (${(await download.getAttribute('title')) ?? 'disabled'})`;
    } else {
      await download.click();
      const dialog = page.getByTestId('download-dialog');
      await dialog.waitFor({ timeout: GUARD_MS });
      await dialog.getByLabel('Folder').fill(saveTo);
      await dialog.getByText(`Files will be saved in ${saveTo}`).waitFor({ timeout: GUARD_MS });
      await longestSince(page);
      await profile.step('download-dialog');
      const clicked = performance.now();
      await dialog.getByRole('button', { name: 'Download', exact: true }).click();
      const writing = options.firstBytes ? firstBytes(saveTo, clicked) : null;
      await page.getByTestId('download-total').waitFor({ timeout: GUARD_MS });
      await page.waitForTimeout(5_000);
      downloadAll = await longestSince(page);
      await profile.step('download');
      firstBytesS = writing && (await writing);
    }

    const cdp = await context.newCDPSession(page);
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return {
      shellS,
      firstRowsS,
      longestTaskMs: { open, sort, filter, search, 'scroll to end': scrollToEnd },
      downloadAll,
      firstBytesS,
      pageHeapMb: heap.usedSize / 1024 / 1024,
    };
  } finally {
    await profile.end().catch(() => undefined);
    await context.close();
  }
}

/**
 * BENCH_RECORDS_SHOTS=DIR: a screenshot of the Library as measured, to look at (its tasks are left out
 * of the next step's figure).
 */
async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.BENCH_RECORDS_SHOTS;
  if (!dir) return;
  await page.screenshot({ path: join(dir, `${name}.png`) });
  await longestSince(page);
}

/** Seconds from `since` to the first bytes under `dir`, looked at every 50 ms (Infinity: none by the guard). */
async function firstBytes(dir: string, since: number): Promise<number> {
  while (performance.now() - since < FIRST_BYTES_GUARD_MS) {
    if (bytesUnder(dir) > 0) return (performance.now() - since) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Infinity;
}
