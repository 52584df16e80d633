// The Campaigns page with a big spreadsheet, as a marketer uses it: the check of every row, then the
// grid scrolled while rows complete, then the pace. Measured in Chromium through the web host and its
// sandbox, on a 5,000-row sheet and, as the baseline of the same run, on a 250-row one: the longest
// main-thread task (a PerformanceObserver of long tasks in the page) while the check's table fills, and
// while the grid is scrolled as rows complete; and the rows per minute of a 1,000-row campaign (the
// pace the page shows, measured over its first minutes) against the 250-row one's.
// BENCH_CAMPAIGN_ROWS, BENCH_CAMPAIGN_RATE_ROWS and BENCH_CAMPAIGN_BASELINE_ROWS change the sizes,
// BENCH_CAMPAIGN_PACE_S how long the pace is measured.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { CampaignSummary, CampaignView } from '../../electron/common/bridge/campaigns';
import { campaignRunProgress } from '../../electron/common/campaign/progress';
import { parseProject, setOutput } from '../../electron/common/composition';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { CHROMIUM_FLAGS, chromiumPath } from '../e2e/chromium';
import { startHostProcess, stopHostProcess } from '../e2e/host-process';
import { bridgeCall, confirmPrice } from '../e2e/price';
import { WATCH_LONG_TASKS, longestSince } from './long-tasks';

const ROWS = Number(process.env.BENCH_CAMPAIGN_ROWS ?? 5_000);
const RATE_ROWS = Number(process.env.BENCH_CAMPAIGN_RATE_ROWS ?? 1_000);
const BASELINE_ROWS = Number(process.env.BENCH_CAMPAIGN_BASELINE_ROWS ?? 250);
const AIM_MS = 200;
/** How long the grid is scrolled while rows complete, and how long the pace is measured after. */
const SCROLL_MS = 20_000;
const PACE_MS = Number(process.env.BENCH_CAMPAIGN_PACE_S ?? 120) * 1000;
const GUARD_MS = 10 * 60_000;

interface Figures {
  rows: number;
  check: number;
  scroll: number;
  /** Rows done a minute, as the page's progress reckons it (null: none finished in the time). */
  perMinute: number | null;
  done: number;
}

/** A logo every row shows, served locally so the link check and the renders read no network. */
export async function logoServer(): Promise<{ server: Server; url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-campaign-logo-'));
  const file = join(dir, 'logo.png');
  const ffmpeg = (await resolveMediaBinary('ffmpeg')).path;
  execFileSync(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=orange:s=64x64', '-frames:v', '1', file]);
  const body = readFileSync(file);
  const server = createServer((_req, res) => {
    res.setHeader('content-length', body.length);
    res.setHeader('content-type', 'image/png');
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/logo.png`, dir };
}

/** The greeting fixture, small and short so the sandbox renders rows quickly. */
export function template(): string {
  const path = join(import.meta.dirname, '..', 'fixtures', 'campaign', 'greeting.project.json');
  const parsed = parseProject(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  const small = setOutput(parsed.project, { width: 320, height: 180 });
  return JSON.stringify({ ...small, scenes: small.scenes.map((s) => ({ ...s, durationMs: 1000 })) });
}

export function sheet(rows: number, logo: string): string {
  const lines = Array.from({ length: rows }, (_, i) => `Name ${i + 1},Company ${i + 1},Ava,SandboxBen,${logo}`);
  return ['First name,company,voice,avatar,logo', ...lines].join('\n');
}

async function measure(rows: number, logo: string): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-campaigns-ui-'));
  // A balance the run cannot exhaust in its 140 s: at the sandbox's 1,000 credits a 1,000-row run paused
  // at its 83rd row once jobs queued as the service's do, and its pace then read 0 rows a minute.
  const host = await startHostProcess(dataDir, { credits: 1_000_000 });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    await context.addInitScript(WATCH_LONG_TASKS);
    const page = await context.newPage();
    await page.goto(`${host.url}#/campaigns`);
    await bridgeCall(page, 'projects.importJson', template());
    const setup = page.getByRole('region', { name: 'New campaign' });
    await setup.waitFor();
    await setup.getByLabel('Template project').click();
    await page.locator('.n-base-select-option').getByText('Greeting', { exact: true }).click();
    await longestSince(page);
    // The check: the file read and every row checked by the host, then the table filled in the page.
    await setup
      .getByLabel('Spreadsheet of the campaign')
      .setInputFiles({ name: 'prospects.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet(rows, logo)) });
    await page
      .getByTestId('campaign-check-summary')
      .getByText(`${rows.toLocaleString('en-US')} rows`, { exact: false })
      .or(page.getByTestId('campaign-check-summary').getByText(`${rows} rows`, { exact: false }))
      .first()
      .waitFor({ timeout: GUARD_MS });
    const check = await longestSince(page);

    await setup.getByLabel('Campaign folder').fill(join(dataDir, 'Videos'));
    await setup.getByTestId('campaign-start').click();
    await confirmPrice(page);
    const grid = page.getByTestId('campaign-grid');
    await grid.waitFor({ timeout: GUARD_MS });
    await longestSince(page);
    // Scrolled down and up again while rows complete (their states and thumbnails change), and paged on
    // (the grid shows the rows a page at a time): a page forward every 8 steps, then as many back.
    const box = await grid.boundingBox();
    const turns = grid.locator('.n-pagination-item--button');
    const until = Date.now() + SCROLL_MS;
    for (let step = 0; Date.now() < until; step += 1) {
      if (step % 8 === 7 && (await turns.count()) > 0)
        await turns.nth(step % 64 < 32 ? -1 : 0).click({ timeout: GUARD_MS });
      if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
      await page.mouse.wheel(0, step % 40 < 20 ? 600 : -600);
      await page.waitForTimeout(150);
    }
    const scroll = await longestSince(page);

    // The pace as the page reckons it, once the run has gone on a while.
    await page.waitForTimeout(PACE_MS);
    const [summary] = await bridgeCall<CampaignSummary[]>(page, 'campaigns.list');
    const view = await bridgeCall<CampaignView>(page, 'campaigns.get', summary.id);
    const progress = campaignRunProgress(view, null, Date.now());
    await bridgeCall(page, 'campaigns.cancel', summary.id).catch(() => undefined);
    return { rows, check, scroll, perMinute: progress.perMinute, done: progress.tally.done };
  } finally {
    await browser.close();
    await stopHostProcess(host, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log(`Machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the start`);
  const logo = await logoServer();
  try {
    const baseline = await measure(BASELINE_ROWS, logo.url);
    const paced = RATE_ROWS === ROWS ? null : await measure(RATE_ROWS, logo.url);
    const many = await measure(ROWS, logo.url);
    const task = (ms: number) => (ms === 0 ? 'no task over 50 ms' : `longest task ${ms} ms`);
    const row = (label: string, key: 'check' | 'scroll') =>
      console.log(
        `${label}: ${task(many[key])} with ${ROWS.toLocaleString('en')} rows, ${task(baseline[key])} with ${BASELINE_ROWS}` +
          (baseline[key] > 0 ? ` (${(many[key] / baseline[key]).toFixed(2)}×)` : '') +
          `; aim under ${AIM_MS} ms: ${many[key] < AIM_MS ? 'met' : 'NOT met'}`,
      );
    row('Checking the sheet', 'check');
    row(`Scrolling and paging the grid as rows complete (${SCROLL_MS / 1000} s)`, 'scroll');
    const rated = paced ?? many;
    const pace = (f: Figures) => (f.perMinute === null ? 'no pace yet' : `${f.perMinute.toFixed(1)} rows/min`);
    console.log(
      `Pace of a ${rated.rows.toLocaleString('en')}-row campaign in the studio after ${(SCROLL_MS + PACE_MS) / 1000} s: ` +
        `${pace(rated)} (${rated.done} done), ${pace(baseline)} with ${BASELINE_ROWS} rows` +
        (rated.perMinute !== null && baseline.perMinute
          ? ` (${(rated.perMinute / baseline.perMinute).toFixed(2)}×)`
          : ''),
    );
    console.log(`Load average at the end: ${loadavg()[0].toFixed(1)}`);
  } finally {
    logo.server.close();
    rmSync(logo.dir, { recursive: true, force: true });
  }
}
