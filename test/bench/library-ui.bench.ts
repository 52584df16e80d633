// The Library with many jobs, as an editor uses it before links expire: open it, select every job and
// download them all. Measured in Chromium through the web host, on a data folder holding 10,000
// completed jobs and, as the baseline, on one holding 500: the longest main-thread task (a
// PerformanceObserver of long tasks in the page) while the Library opens, while every job is selected,
// and in the 15 s after Download is clicked (the queue's events arriving as the files are saved).
// The results come from a local file server, so the figures are the page's and the host's, not a network's.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { openLedger } from '../../electron/services/records/open-ledger';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { CHROMIUM_FLAGS, chromiumPath } from '../e2e/chromium';
import { startHostProcess, stopHostProcess } from '../e2e/host-process';
import { WATCH_LONG_TASKS, longestSince } from './long-tasks';

const JOBS = Number(process.env.BENCH_LIBRARY_JOBS ?? 10_000);
const BASELINE_JOBS = 500;
const AIM_MS = 200;
const AFTER_DOWNLOAD_MS = 15_000;

interface Figures {
  jobs: number;
  open: number;
  selectAll: number;
  download: number;
  filesSaved: number;
}

async function resultServer(): Promise<{ server: Server; url: (i: number) => string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-library-result-'));
  const file = join(dir, 'result.mp3');
  execFileSync((await resolveMediaBinary('ffmpeg')).path, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=d=1', file]);
  const body = readFileSync(file);
  const server = createServer((_req, res) => {
    res.setHeader('content-length', body.length);
    res.setHeader('etag', '"result"');
    res.setHeader('content-type', 'audio/mpeg');
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { server, url: (i) => `http://127.0.0.1:${port}/result-${i}.mp3`, dir };
}

/** A data folder whose ledger holds `count` completed speech jobs of a service connection. */
async function seededFolder(count: number, url: (i: number) => string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-library-'));
  const ledger = openLedger(dataDir);
  const now = Date.now();
  const writes: Promise<void>[] = [];
  for (let i = 0; i < count; i += 1) {
    const record: JobRecord = {
      id: `job-${i}`,
      kind: 'tts',
      phase: 'completed',
      remoteId: `remote-${i}`,
      connectionId: 'remote',
      connectionName: 'Remote',
      projectId: null,
      summary: `Speech · "line ${i}"`,
      requestHash: `h${i}`,
      request: { voice_id: 'ava', input_text: `Line ${i} of the catalogue.` },
      createdAt: now - (i + 1) * 1000,
      updatedAt: now,
      finishedAt: now - 500,
      expiresAt: now + 6 * 86_400_000,
      deadlineAt: now,
      remoteStatus: 3,
      resultUrl: url(i),
      costEstimate: null,
      chargedCredits: 1,
      error: null,
      answer: null,
      polls: 1,
      purpose: { type: 'plain' },
      reactedAt: now,
    };
    writes.push(ledger.put(record));
  }
  await Promise.all(writes);
  await ledger.flush();
  return dataDir;
}

async function measure(count: number, url: (i: number) => string): Promise<Figures> {
  const dataDir = await seededFolder(count, url);
  const host = await startHostProcess(dataDir);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.addInitScript(WATCH_LONG_TASKS);
    const page = await context.newPage();
    await page.goto(`${host.url}#/library`);
    await page.locator('tr[data-job-id]').first().waitFor({ timeout: 120_000 });
    await page.getByText(`All ${count}`).waitFor({ timeout: 120_000 });
    const open = await longestSince(page);

    await page.locator('thead .n-checkbox').first().click();
    const button = page.getByTestId('download-selected');
    await page.waitForFunction((n) => document.body.textContent?.includes(`Download… (${n})`), count);
    const selectAll = await longestSince(page);

    await button.click();
    const dialog = page.getByTestId('download-dialog');
    await dialog.waitFor();
    const out = join(dataDir, 'Saved');
    await dialog.getByLabel('Folder').fill(out);
    await dialog.getByText(`Files will be saved in ${out}`).waitFor();
    await longestSince(page);
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await page.getByTestId('download-total').waitFor({ timeout: 120_000 });
    await page.waitForTimeout(AFTER_DOWNLOAD_MS);
    const download = await longestSince(page);
    const filesSaved = existsSync(out) ? readdirSync(out).filter((n) => n.endsWith('.mp3')).length : 0;
    return { jobs: count, open, selectAll, download, filesSaved };
  } finally {
    await browser.close();
    await stopHostProcess(host, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log(`Machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}`);
  const results = await resultServer();
  try {
    const baseline = await measure(BASELINE_JOBS, results.url);
    const many = await measure(JOBS, results.url);
    // A page without a task over 50 ms reports none: a ratio to nothing says nothing.
    const task = (ms: number) => (ms === 0 ? 'no task over 50 ms' : `longest task ${ms} ms`);
    const row = (label: string, key: 'open' | 'selectAll' | 'download') =>
      console.log(
        `${label}: ${task(many[key])} with ${JOBS.toLocaleString('en')} jobs, ${task(baseline[key])} with ${BASELINE_JOBS}` +
          (baseline[key] > 0 ? ` (${(many[key] / baseline[key]).toFixed(2)}×)` : '') +
          `; aim under ${AIM_MS} ms: ${many[key] < AIM_MS ? 'met' : 'NOT met'}`,
      );
    row('Opening the Library', 'open');
    row('Selecting every job', 'selectAll');
    row(`Downloading them all (the first ${AFTER_DOWNLOAD_MS / 1000} s)`, 'download');
    console.log(
      `Files saved in those ${AFTER_DOWNLOAD_MS / 1000} s: ${many.filesSaved} of ${JOBS.toLocaleString('en')}; ` +
        `${baseline.filesSaved} of ${BASELINE_JOBS} (each verified: length, ffprobe, sha256)`,
    );
  } finally {
    results.server.close();
    rmSync(results.dir, { recursive: true, force: true });
  }
}
