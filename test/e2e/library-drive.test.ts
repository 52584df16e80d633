// Issue 66: a missing drive is not an empty folder, seen in Chromium through a web host process. The
// archive keeps its copies on a drive (a folder on /dev/shm's tmpfs, reached through a link where a drive
// would be mounted). The drive goes while the Library is open: the link becomes an empty folder on /tmp's
// disk, as an unmount leaves its mount point, and the drive's folder leaves its path (which a real
// unmount tells every watch on it). The Library says the drive is missing, and nothing is written in the
// old path: not by the watcher, not by the archive's folder saved again, not after a reload. When the
// drive is back its copies are found on it and nothing is fetched twice.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { archiveSettingsSpec } from '../../electron/services/downloads/archive';
import { openLedger } from '../../electron/services/records/open-ledger';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { createConfStoreFactory } from '../../electron/services/store/conf-store';
import { skipUnless } from '../environment-bound';
import { startFileServer } from '../unit/downloads/file-server';
import { HANG_GUARD_MS, until } from '../wait';
import { newStudioContext, screenshot } from './browser';
import { restartableStudio } from './host-process';
import { watchErrors } from './outage';

const studio = restartableStudio('studio-e2e-drive-');
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
    // Not reacted yet: the archive keeps each at the host's start (the reactor's catch-up).
    reactedAt: null,
  };
}

/** Each row's Download words, by job id. */
const cellTexts = (page: Page): Promise<Record<string, string>> =>
  page
    .locator('tr[data-job-id]')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((row) => [
          row.getAttribute('data-job-id')!.slice('job-'.length),
          row.querySelector('[data-download-state]')?.textContent ?? '',
        ]),
      ),
    );

/** A screenshot of the rows: the notices are hidden for it (not removed: later ones must still show). */
async function shotOfRows(page: Page, name: string): Promise<void> {
  const style = await page.addStyleTag({ content: '.n-notification-container { visibility: hidden; }' });
  await screenshot(page, name);
  await style.evaluate((node) => (node as Element).remove());
}

describe("the archive's drive goes missing in Chromium", () => {
  it('says the drive is missing, writes nothing in its empty mount point, and finds its copies when it is back', async (context) => {
    const dataDir = studio.dataDir;
    const drive = mkdtempSync('/dev/shm/studio-e2e-drive-');
    const server = await startFileServer();
    try {
      skipUnless(context, statSync(drive).dev !== statSync(dataDir).dev, 'a tmpfs at /dev/shm apart from /tmp');
      const file = join(dataDir, 'clip.mp4');
      execFileSync((await resolveMediaBinary('ffmpeg')).path, [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25', '-t', '1'],
        ...['-pix_fmt', 'yuv420p', file],
      ]);
      const clip = readFileSync(file);
      rmSync(file);

      // The archive's video folder is where the drive is mounted; one name per result, no subfolders.
      const mountPoint = join(dataDir, 'Archive drive');
      symlinkSync(drive, mountPoint);
      createConfStoreFactory(dataDir, { log: silent, notify: () => undefined })(archiveSettingsSpec).set({
        enabled: true,
        videoFolder: mountPoint,
        audioFolder: join(dataDir, 'Music'),
        template: '{text|id}',
      });
      const ledger = openLedger(dataDir);
      for (const [i, id] of IDS.entries()) {
        await ledger.put(job(id, i, server.url(`/${id}.mp4`)));
        server.files.set(`/${id}.mp4`, { body: clip, etag: `"${id}"` });
      }
      await ledger.flush();

      const errors = watchErrors();
      const host = await studio.start();
      const page = await (await newStudioContext(studio.browser, { viewport: { width: 1280, height: 800 } })).newPage();
      errors.watch(page);
      await page.goto(`${host.url}#/library`);
      await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
      await until('the archive to save all three on the drive', async () => {
        const texts = await cellTexts(page);
        return IDS.every((id) => texts[id]?.startsWith('Saved'));
      });
      expect(readdirSync(drive).sort()).toEqual(['Clip a.mp4', 'Clip b.mp4', 'Clip c.mp4']);

      // Unplugged: the mount point is an empty folder on the system disk again, and the drive's folder
      // is no longer at its path.
      rmSync(mountPoint);
      mkdirSync(mountPoint);
      const unplugged = `${drive}-unplugged`;
      renameSync(drive, unplugged);
      expect(statSync(mountPoint).dev).not.toBe(statSync(unplugged).dev);

      await until('every row to say its drive is missing', async () => {
        const texts = await cellTexts(page);
        return IDS.every((id) => texts[id]?.startsWith(`Drive missing: ${mountPoint}`));
      });
      const banner = page.getByTestId('downloads-paused');
      await expect.poll(() => banner.textContent()).toContain(`The drive holding ${mountPoint} is missing`);
      // Only the drive brings saving back: no Resume button that would do nothing.
      expect(await banner.getByRole('button', { name: 'Resume downloads' }).count()).toBe(0);
      await shotOfRows(page, 'library-drive-missing-1280');

      // The archive's folder saved again as it is: the dialog says the drive is missing (before, it said
      // every result would be kept, and the folder would have been made anew on the system disk).
      await page.getByTestId('archive-settings').click();
      const dialog = page.getByTestId('archive-dialog');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => dialog.getByTestId('archive-problem').textContent())
        .toContain(`The drive holding ${mountPoint} is missing`);
      await shotOfRows(page, 'library-drive-archive-refused-1280');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      // A reload looks at every copy again, and still fetches nothing into the mount point.
      await page.reload();
      await until(
        'the rows after a reload',
        async () => (await cellTexts(page)).a?.startsWith('Drive missing') ?? false,
      );
      expect(readdirSync(mountPoint)).toEqual([]);

      // Plugged in again: the folder that waited is looked at (every 10 s) and its copies are found there.
      rmSync(mountPoint, { recursive: true });
      renameSync(unplugged, drive);
      symlinkSync(drive, mountPoint);
      await until(
        'the copies found on the drive again',
        async () => {
          const texts = await cellTexts(page);
          return IDS.every((id) => texts[id]?.startsWith('Saved'));
        },
        HANG_GUARD_MS,
      );
      await expect.poll(() => banner.count()).toBe(0);
      expect(readdirSync(drive).sort()).toEqual(['Clip a.mp4', 'Clip b.mp4', 'Clip c.mp4']);
      await page.context().close();
      await studio.stop('SIGTERM');
      expect(errors.unexpected()).toEqual([]);
    } finally {
      await server.close();
      rmSync(drive, { recursive: true, force: true });
      rmSync(`${drive}-unplugged`, { recursive: true, force: true });
    }
  }, 300_000);
});
