// Downloads through the web host, interrupted by killing the host process mid-way: select jobs in the
// Library, download them to a typed folder, SIGKILL the host, start it again on the same data folder,
// and every file ends complete under its templated name.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { openLedger } from '../../electron/services/records/open-ledger';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { ProjectLibrary } from '../../electron/services/projects/project-library';
import { createConfStoreFactory } from '../../electron/services/store/conf-store';
import { HANG_GUARD_MS, until } from '../wait';
import { launchBrowser, newStudioContext, screenshot } from './browser';
import { startHostProcess, stopHostProcess, type HostProcess } from './host-process';
import { watchErrors, type PageErrors } from './outage';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
let dataDir: string;
let server: ClipServer;
let browser: Browser;
let host: HostProcess | undefined;
let clip: Buffer;
async function startHost(): Promise<HostProcess> {
  return startHostProcess(dataDir);
}

async function killHost(): Promise<void> {
  if (!host) return;
  const stopping = host;
  host = undefined;
  await stopHostProcess(stopping, 'SIGKILL');
}

async function openLibrary(url: string, errors: PageErrors): Promise<Page> {
  const context = await newStudioContext(browser);
  const page = await context.newPage();
  errors.watch(page);
  await page.goto(`${url}#/library`);
  await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
  return page;
}

/** Where the first answer for each file stops and holds (of ~1.5 MB). */
const HOLD_AT = 600_000;

interface ClipServer {
  url(path: string): string;
  /** The status of every answer, in arrival order. */
  log: { path: string; status: number }[];
  /** From now on answers are held part-way (see startClipServer). */
  hold(): void;
  /** From now on answers are sent whole, at once again (for the host started after the kill). */
  release(): void;
  close(): Promise<void>;
}

/**
 * Serves the clip at /result-<n>.mp4 with Range and an ETag, each answer whole and at once, except
 * between hold() and release(): then an answer sends HOLD_AT bytes (at about 300 KB/s, so the studio
 * measures a speed) and holds its connection open until the client goes away. So every download the
 * user started is part-way when the host is killed, however slow or busy the machine is.
 */
async function startClipServer(body: Buffer): Promise<ClipServer> {
  const log: ClipServer['log'] = [];
  let holding = false;
  const http: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (!/^\/result-\d\.mp4$/.test(path)) {
      log.push({ path, status: 404 });
      res.writeHead(404).end();
      return;
    }
    const etag = `"clip-${path}"`;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    const start = range && (ifRange === undefined || ifRange === etag) ? Number(range[1]) : 0;
    const status = start > 0 ? 206 : 200;
    log.push({ path, status });
    res.setHeader('etag', etag);
    res.setHeader('accept-ranges', 'bytes');
    res.setHeader('content-type', 'application/octet-stream');
    res.setHeader('content-length', String(body.length - start));
    if (status === 206) res.setHeader('content-range', `bytes ${start}-${body.length - 1}/${body.length}`);
    res.writeHead(status);
    if (!holding) {
      res.end(body.subarray(start));
      return;
    }
    void (async () => {
      for (let at = start; at < HOLD_AT && !res.destroyed; at += 16_384) {
        res.write(body.subarray(at, Math.min(HOLD_AT, at + 16_384)));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Held: nothing more is sent, and the connection ends when the killed host's socket does.
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    log,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const NOW = Date.now();
const texts = ['Welcome to spring', 'Meet the team', 'Our new product', 'See you soon'];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-downloads-'));
  // A real (ffprobe-readable) video of ~1.5 MB, held part-way so the host is killed mid-download.
  const file = join(dataDir, 'clip.mp4');
  execFileSync((await resolveMediaBinary('ffmpeg')).path, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25',
    '-t',
    '3',
    '-b:v',
    '4M',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  clip = readFileSync(file);
  rmSync(file);
  server = await startClipServer(clip);
  const project = await new ProjectLibrary({
    dataDir,
    createStore: createConfStoreFactory(dataDir, { log: silent, notify: () => undefined }),
  }).create({ kind: 'avatar-video', preset: '16:9-720p', name: 'Spring launch' });
  const ledger = openLedger(dataDir);
  for (const [i, text] of texts.entries()) {
    const record: JobRecord = {
      id: `job-${i}`,
      kind: 'avatar-video',
      phase: 'completed',
      remoteId: `remote-${i}`,
      connectionId: 'sandbox',
      connectionName: 'Sandbox',
      projectId: project.project.id,
      summary: `Avatar video · "${text}"`,
      requestHash: `h${i}`,
      request: { text },
      createdAt: NOW - (i + 1) * 60_000,
      updatedAt: NOW,
      finishedAt: NOW - 30_000,
      expiresAt: NOW + 6 * 86_400_000,
      deadlineAt: NOW,
      remoteStatus: 3,
      resultUrl: server.url(`/result-${i}.mp4`),
      costEstimate: null,
      chargedCredits: 10,
      error: null,
      answer: null,
      polls: 1,
      purpose: { type: 'plain' },
      reactedAt: null,
    };
    await ledger.put(record);
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await killHost();
  await browser?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Downloads in Chromium through the web host', () => {
  it('downloads selected jobs to a folder, survives the host being killed mid-way, and ends with every file complete', async () => {
    // The page is closed before the host is killed, so no outage window: any error fails the test.
    const errors = watchErrors();
    host = await startHost();
    const page = await openLibrary(host.url, errors);
    const rows = page.locator('tr[data-job-id]');
    await expect.poll(() => rows.count()).toBe(4);
    await expect.poll(() => rows.first().textContent()).toContain('Spring launch');

    // Click the first, Shift-click the third: three selected; then the fourth with a plain click.
    await rows.nth(0).locator('.n-checkbox').click();
    await rows
      .nth(2)
      .locator('.n-checkbox')
      .click({ modifiers: ['Shift'] });
    await rows.nth(3).locator('.n-checkbox').click();
    const button = page.getByTestId('download-selected');
    await expect.poll(() => button.textContent()).toContain('(4)');
    await button.click();
    const dialog = page.getByTestId('download-dialog');
    await dialog.waitFor();
    const folder = join(dataDir, 'Saved results');
    await dialog.getByLabel('Folder').fill('relative/folder');
    await expect.poll(() => dialog.textContent()).toMatch(/is not a full path/);
    await dialog.getByLabel('Folder').fill(folder);
    await expect
      .poll(() => dialog.textContent())
      .toContain(`Files will be saved in ${folder} (the folder is made when the download starts).`);
    // Checking the typed folder created nothing; Download does.
    expect(existsSync(folder)).toBe(false);
    // {row} is a batch or campaign row's own number: these plain jobs have none, so {row|kind} names them by kind.
    await dialog.getByLabel('File name template').fill('{project}/{row|kind} - {text}');
    await screenshot(page, 'downloads-dialog');
    // The archive (on by default) fetches its own copies of these results through the same queue as
    // the user's downloads, from when the host starts: held too, they would take the queue's places.
    // So the server holds answers only once the archive has its copies.
    const videos = join(dataDir, 'Videos', 'Avatar Studio', 'Spring launch');
    await until(
      `the archive to keep 4 videos in ${videos}`,
      () => existsSync(videos) && readdirSync(videos).filter((n) => n.endsWith('.mp4')).length === 4,
    );
    server.hold();
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();

    const target = join(folder, 'Spring launch');
    // The server holds each file's first answer at HOLD_AT bytes, so these stay part-way until the kill.
    await until(
      `a partial download over 200 KB in ${target}`,
      () =>
        existsSync(target) &&
        readdirSync(target).some((n) => n.endsWith('.part') && statSync(join(target, n)).size > 200_000),
    );
    await expect
      .poll(() => page.getByTestId('download-total').textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/Downloading \d files?/);
    await expect
      .poll(() => rows.first().textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/\d+% · [\d.]+ (KB|MB)\/s · .* left/);
    await screenshot(page, 'downloads-progress');
    await page.context().close();

    await killHost();
    const parts = readdirSync(target).filter((n) => n.endsWith('.part'));
    expect(parts.length).toBeGreaterThan(0);
    expect(readdirSync(target).filter((n) => !n.endsWith('.part'))).toEqual([]);
    // Nothing partial carries a final name.
    for (const name of readdirSync(target).filter((n) => !n.endsWith('.part')))
      expect(readFileSync(join(target, name)).equals(clip)).toBe(true);
    const requestsBefore = server.log.length;
    server.release();

    host = await startHost();
    const expected = texts.map((text) => `Avatar video - ${text}.mp4`).sort();
    await until(
      `the restarted host to finish ${expected.join(', ')} in ${target}`,
      () => readdirSync(target).sort().join('|') === expected.join('|'),
      2 * HANG_GUARD_MS,
    );
    for (const name of expected) expect(readFileSync(join(target, name)).equals(clip), name).toBe(true);
    // The restarted host resumed the partial files with Range rather than starting them again.
    const resumed = server.log.slice(requestsBefore).filter((l) => l.status === 206);
    expect(resumed.length).toBeGreaterThanOrEqual(1);

    const again = await openLibrary(host.url, errors);
    const after = again.locator('tr[data-job-id]');
    await expect
      .poll(async () => (await after.allTextContents()).filter((t) => t.includes('Saved')).length, {
        timeout: HANG_GUARD_MS,
      })
      .toBe(4);
    expect(await after.first().textContent()).toContain(join(target, 'Avatar video - Welcome to spring.mp4'));
    await again
      .locator('.n-data-table .n-base-loading')
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
    await screenshot(again, 'downloads-saved');

    // The archive (on by default, under the host's Videos and Music folders) kept its own copies of the
    // results that had completed before the host started (waited for above)...
    const day = new Date(NOW - 30_000).toISOString().slice(0, 10);
    expect(readdirSync(videos).sort()).toEqual(texts.map((t) => `${day} - ${t}.mp4`).sort());
    // ...and saves a new result by itself when its job completes.
    const submitted = await again.evaluate(async () => {
      const response = await fetch('/bridge/call/jobs.submit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          {
            kind: 'tts',
            body: { input_text: 'Archived by itself', voice_id: 'sandbox_ava', rate: '50%' },
            // The sandbox's published price for speech.
            confirmation: { by: 'user', credits: 1 },
          },
        ]),
        credentials: 'same-origin',
      });
      return (await response.json()) as { ok: boolean; value?: { status: string } };
    });
    expect(submitted.value?.status).toBe('submitted');
    const music = join(dataDir, 'Music', 'Avatar Studio', 'Speech');
    await until(
      `the archive to save the new speech result in ${music}`,
      () => existsSync(music) && readdirSync(music).some((n) => /^\d{4}-\d\d-\d\d - Archived by itself\.mp3$/.test(n)),
      2 * HANG_GUARD_MS,
    );
    await again.getByTestId('archive-settings').click();
    await again.getByTestId('archive-dialog').waitFor();
    expect(await again.getByLabel('Archive folder for videos').inputValue()).toBe(
      join(dataDir, 'Videos', 'Avatar Studio'),
    );
    await screenshot(again, 'downloads-archive-settings');
    expect(errors.unexpected()).toEqual([]);
  }, 300_000);
});
