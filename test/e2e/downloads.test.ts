// Downloads through the web host, interrupted by killing the host process mid-way: select jobs in the
// Library, download them to a typed folder, SIGKILL the host, start it again on the same data folder,
// and every file ends complete under its templated name.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { FileLedgerStorage } from '../../electron/services/jobs/ledger';
import { resolveMediaBinary } from '../../electron/services/media/binaries';
import { ProjectLibrary } from '../../electron/services/projects/project-library';
import { createConfStoreFactory } from '../../electron/services/store/conf-store';
import { startFileServer, until, type FileServer } from '../unit/downloads/file-server';
import { launchBrowser, newStudioContext, screenshot } from './browser';
import { startHostProcess, stopHostProcess, type HostProcess } from './host-process';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
let dataDir: string;
let server: FileServer;
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

async function openLibrary(url: string, errors: string[]): Promise<Page> {
  const context = await newStudioContext(browser);
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  await page.goto(`${url}#/library`);
  await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
  return page;
}

const NOW = Date.now();
const texts = ['Welcome to spring', 'Meet the team', 'Our new product', 'See you soon'];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-downloads-'));
  server = await startFileServer();
  // A real (ffprobe-readable) video of ~1.5 MB, served slowly so the host is killed mid-download.
  const file = join(dataDir, 'clip.mp4');
  execFileSync((await resolveMediaBinary('ffmpeg')).path, ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '3', '-b:v', '4M', '-pix_fmt', 'yuv420p', file]);
  clip = readFileSync(file);
  rmSync(file);
  const project = await new ProjectLibrary({ dataDir, createStore: createConfStoreFactory(dataDir, { log: silent, notify: () => undefined }) })
    .create({ kind: 'avatar-video', preset: '16:9-720p', name: 'Spring launch' });
  const ledger = new FileLedgerStorage(join(dataDir, 'jobs'));
  for (const [i, text] of texts.entries()) {
    server.files.set(`/result-${i}.mp4`, { body: clip, etag: `"clip-${i}"`, throttle: 300_000 });
    const record: JobRecord = {
      id: `job-${i}`, kind: 'avatar-video', phase: 'completed', remoteId: `remote-${i}`, connectionId: 'sandbox', connectionName: 'Sandbox',
      projectId: project.project.id, summary: `Avatar video · "${text}"`, requestHash: `h${i}`, request: { text }, createdAt: NOW - (i + 1) * 60_000,
      updatedAt: NOW, finishedAt: NOW - 30_000, expiresAt: NOW + 6 * 86_400_000, deadlineAt: NOW, remoteStatus: 3,
      resultUrl: server.url(`/result-${i}.mp4`), costEstimate: null, chargedCredits: 10, error: null, answer: null, polls: 1, purpose: { type: 'plain' }, reactedAt: null,
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
    const errors: string[] = [];
    host = await startHost();
    const page = await openLibrary(host.url, errors);
    const rows = page.locator('tr[data-job-id]');
    await expect.poll(() => rows.count()).toBe(4);
    await expect.poll(() => rows.first().textContent()).toContain('Spring launch');

    // Click the first, Shift-click the third: three selected; then the fourth with a plain click.
    await rows.nth(0).locator('.n-checkbox').click();
    await rows.nth(2).locator('.n-checkbox').click({ modifiers: ['Shift'] });
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
    await expect.poll(() => dialog.textContent()).toContain(`Files will be saved in ${folder} (the folder is made when the download starts).`);
    // Checking the typed folder created nothing; Download does.
    expect(existsSync(folder)).toBe(false);
    await dialog.getByLabel('File name template').fill('{project}/{row} - {text}');
    await screenshot(page, 'downloads-dialog');
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();

    const target = join(folder, 'Spring launch');
    await until(() => existsSync(target) && readdirSync(target).some((n) => n.endsWith('.part') && statSync(join(target, n)).size > 200_000), 30_000);
    await expect.poll(() => page.getByTestId('download-total').textContent(), { timeout: 10_000 }).toMatch(/Downloading \d files?/);
    await expect.poll(() => rows.first().textContent(), { timeout: 10_000 }).toMatch(/\d+% · [\d.]+ (KB|MB)\/s · .* left/);
    await screenshot(page, 'downloads-progress');
    await page.context().close();

    await killHost();
    const parts = readdirSync(target).filter((n) => n.endsWith('.part'));
    expect(parts.length).toBeGreaterThan(0);
    // Nothing partial carries a final name.
    for (const name of readdirSync(target).filter((n) => !n.endsWith('.part'))) expect(readFileSync(join(target, name)).equals(clip)).toBe(true);
    const requestsBefore = server.log.length;

    host = await startHost();
    const expected = texts.map((text, i) => `${i + 1} - ${text}.mp4`).sort();
    await until(() => readdirSync(target).sort().join('|') === expected.join('|'), 60_000);
    for (const name of expected) expect(readFileSync(join(target, name)).equals(clip), name).toBe(true);
    // The restarted host resumed the partial files with Range rather than starting them again.
    const resumed = server.log.slice(requestsBefore).filter((l) => l.status === 206);
    expect(resumed.length).toBeGreaterThanOrEqual(Math.min(parts.length, 1));

    const again = await openLibrary(host.url, errors);
    const after = again.locator('tr[data-job-id]');
    await expect.poll(async () => (await after.allTextContents()).filter((t) => t.includes('Saved')).length, { timeout: 10_000 }).toBe(4);
    expect(await after.first().textContent()).toContain(join(target, '1 - Welcome to spring.mp4'));
    await again.locator('.n-data-table .n-base-loading').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
    await screenshot(again, 'downloads-saved');

    // The archive (on by default, under the host's Videos and Music folders) kept its own copies of the
    // results that had completed before the host started...
    const videos = join(dataDir, 'Videos', 'Avatar Studio', 'Spring launch');
    const day = new Date(NOW - 30_000).toISOString().slice(0, 10);
    await until(() => existsSync(videos) && readdirSync(videos).filter((n) => n.endsWith('.mp4')).length === 4, 60_000);
    expect(readdirSync(videos).sort()).toEqual(texts.map((t) => `${day} - ${t}.mp4`).sort());
    // ...and saves a new result by itself when its job completes.
    const submitted = await again.evaluate(async () => {
      const response = await fetch('/bridge/call/jobs.submit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ kind: 'tts', body: { input_text: 'Archived by itself', voice_id: 'sandbox_ava', rate: '50%' }, confirmation: { by: 'user', credits: null } }]),
        credentials: 'same-origin',
      });
      return (await response.json()) as { ok: boolean; value?: { status: string } };
    });
    expect(submitted.value?.status).toBe('submitted');
    const music = join(dataDir, 'Music', 'Avatar Studio', 'Speech');
    await until(() => existsSync(music) && readdirSync(music).some((n) => /^\d{4}-\d\d-\d\d - Archived by itself\.mp3$/.test(n)), 90_000);
    await again.getByTestId('archive-settings').click();
    await again.getByTestId('archive-dialog').waitFor();
    expect(await again.getByLabel('Archive folder for videos').inputValue()).toBe(join(dataDir, 'Videos', 'Avatar Studio'));
    await screenshot(again, 'downloads-archive-settings');
    expect(errors).toEqual([]);
  }, 240_000);
});
