// Issue 66's journey in Chromium through a web host process: the Library saves three results, then one
// copy is deleted and another edited on disk while the page stays open. Without a reload the Library says
// which copy is missing and which changed, "Not saved" lists the missing one, and the deleted copy comes
// back (fetched again while its link lives) once the service answers.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { archiveSettingsSpec } from '../../electron/services/downloads/archive';
import { FileLedgerStorage } from '../../electron/services/jobs/ledger';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { createConfStoreFactory } from '../../electron/services/store/conf-store';
import { startFileServer, type ServedFile } from '../unit/downloads/file-server';
import { HANG_GUARD_MS } from '../wait';
import { newStudioContext, screenshot } from './browser';
import { restartableStudio } from './host-process';
import { watchErrors } from './outage';

const studio = restartableStudio('studio-e2e-disk-');
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const NOW = Date.now();
const HOUR = 3_600_000;
const IDS = ['a', 'b', 'c'];

function job(id: string, i: number, url: string): JobRecord {
  return {
    id: `job-${id}`,
    kind: 'avatar-video',
    phase: 'completed',
    remoteId: `remote-${id}`,
    connectionId: 'elsewhere',
    connectionName: 'Service',
    projectId: null,
    summary: `Avatar video · "Clip ${id}"`,
    requestHash: `h${i}`,
    request: { text: `Clip ${id}` },
    createdAt: NOW - (i + 1) * 60_000,
    updatedAt: NOW,
    finishedAt: NOW - 30_000,
    expiresAt: NOW + 100 * HOUR,
    deadlineAt: NOW,
    remoteStatus: 3,
    resultUrl: url,
    costEstimate: null,
    chargedCredits: 10,
    error: null,
    answer: null,
    polls: 1,
    purpose: { type: 'plain' },
    reactedAt: null,
  };
}

describe('the Library follows the disk in Chromium', () => {
  it('shows a deleted copy missing and an edited one changed without a reload, then fetches the deleted one back', async () => {
    const server = await startFileServer();
    const dataDir = studio.dataDir;
    const file = join(dataDir, 'clip.mp4');
    execFileSync((await resolveMediaBinary('ffmpeg')).path, [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25', '-t', '2'],
      ...['-pix_fmt', 'yuv420p', file],
    ]);
    const clip = readFileSync(file);
    rmSync(file);
    try {
      // The archive is off: the copies here are the user's own, saved from the Library.
      createConfStoreFactory(dataDir, { log: silent, notify: () => undefined })(archiveSettingsSpec).set({
        ...archiveSettingsSpec.defaults,
        enabled: false,
      });
      const ledger = new FileLedgerStorage(join(dataDir, 'jobs'));
      for (const [i, id] of IDS.entries()) {
        await ledger.put(job(id, i, server.url(`/${id}.mp4`)));
        server.files.set(`/${id}.mp4`, { body: clip, etag: `"${id}"` });
      }
      const errors = watchErrors();
      const host = await studio.start();
      const context = await newStudioContext(studio.browser, { viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      errors.watch(page);
      await page.goto(`${host.url}#/library`);
      await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
      await expect.poll(() => page.locator('tr[data-job-id]').count(), { timeout: HANG_GUARD_MS }).toBe(3);
      const cell = (id: string) => page.locator(`tr[data-job-id="job-${id}"] [data-download-state]`);

      const folder = join(dataDir, 'Clips');
      for (const id of IDS) await page.locator(`tr[data-job-id="job-${id}"] .n-checkbox`).click();
      await page.getByTestId('download-selected').click();
      const dialog = page.getByTestId('download-dialog');
      await dialog.getByLabel('Folder').fill(folder);
      await dialog.getByLabel('File name template').fill('{text}');
      await expect.poll(() => dialog.textContent()).toContain(`Files will be saved in ${folder}`);
      await dialog.getByRole('button', { name: 'Download', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      for (const id of IDS)
        await expect.poll(() => cell(id).getAttribute('data-download-state'), { timeout: HANG_GUARD_MS }).toBe('saved');

      const names = readdirSync(folder);
      const pathOf = (id: string) =>
        join(
          folder,
          names.find((n) => n.startsWith(`Clip ${id}`))!,
        );
      // The copy fetched again comes slowly until the test has seen it missing (the server reads the
      // throttle as it sends each slice, so taking it away lets the rest through).
      const slow: ServedFile = { body: clip, etag: '"a"', throttle: 4_000 };
      server.files.set('/a.mp4', slow);
      rmSync(pathOf('a'));
      const edited = readFileSync(pathOf('b'));
      edited[edited.length >> 1] ^= 0xff;
      writeFileSync(pathOf('b'), edited);

      await expect
        .poll(() => cell('a').textContent(), { timeout: HANG_GUARD_MS })
        .toMatch(/^Copy missing, fetching again/);
      await expect.poll(() => cell('b').textContent(), { timeout: HANG_GUARD_MS }).toContain('1 copy changed on disk');
      expect(await cell('c').textContent()).toMatch(/^Saved/);
      await screenshot(page, 'library-disk-changed-1280');
      await page.getByTestId('filter-not-saved').click();
      await expect.poll(() => page.locator('tr[data-job-id]').count(), { timeout: HANG_GUARD_MS }).toBe(1);
      await expect(page.locator('tr[data-job-id]').getAttribute('data-job-id')).resolves.toBe('job-a');
      await screenshot(page, 'library-disk-not-saved-1280');
      await page.getByTestId('filter-not-saved').click();

      delete slow.throttle;
      await expect.poll(() => cell('a').getAttribute('data-download-state'), { timeout: HANG_GUARD_MS }).toBe('saved');
      expect(readFileSync(pathOf('a')).equals(clip)).toBe(true);
      await context.close();
      await studio.stop('SIGTERM');
      expect(errors.unexpected()).toEqual([]);
    } finally {
      await server.close();
    }
  }, 240_000);
});
