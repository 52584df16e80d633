// The record of copies follows the disk as it changes (issue 66): real folders, a real download queue and
// the real watcher; a copy deleted, moved or edited on disk is told as an event, with no page load and no
// hourly check (the watcher's periodic look is set far beyond the hang guard, so only the watch can tell).
// And a missing drive is not an empty folder: the folder a copy was saved in is replaced by one on another
// device (a folder on /dev/shm's tmpfs, reached through a link, swapped for an empty one on /tmp's disk,
// as an unmounted drive leaves its mount point); nothing is written there and the drive is named missing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { type DownloadView } from '../../../electron/common/bridge/downloads';
import { isDriveMissing } from '../../../electron/common/bridge/download-words';
import { CopyWatcher } from '../../../electron/services/downloads/copy-watcher';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { lostCopiesNotice } from '../../../electron/services/downloads/lost-notice';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { skipUnless } from '../../environment-bound';
import { until } from '../../wait';
import { patternBytes } from './file-server';
import { completedJob, fileServerForFile, NOW, silent } from './job-fixture';
import { recordsIn } from './queue-record';

const files = fileServerForFile();
const HOUR = 3_600_000;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function tempDir(parent: string, prefix: string): string {
  const dir = mkdtempSync(join(parent, prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A queue whose jobs' results are served by the file server, and every change it announces. */
function queue(dataDir: string) {
  const seen: DownloadView[] = [];
  const service = new DownloadsService({
    dataDir,
    records: recordsIn(dataDir),
    createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
    log: silent,
    now: () => NOW,
    job: (id) => completedJob(id, files.server.url(`/${id}.mp4`)),
    projectName: async () => null,
  });
  service.changes.add((view) => seen.push(view));
  cleanup.push(() => service.dispose());
  return { service, seen };
}

async function saveAll(service: DownloadsService, ids: string[], folder: string): Promise<Map<string, string>> {
  for (const [n, id] of ids.entries()) files.server.files.set(`/${id}.mp4`, { body: patternBytes(3000 + n, n + 1) });
  await service.start({ jobIds: ids, folder, template: '{id}', origin: 'library' });
  await service.whenIdle();
  const paths = new Map<string, string>();
  for (const entry of [...service.manager.lookup.copies()]) paths.set(entry.jobId, entry.savedPath!);
  expect([...paths.keys()].sort()).toEqual([...ids].sort());
  return paths;
}

/**
 * The watcher as the studio runs it, with its periodic looks out of the test's reach; answers once its
 * first look at the folders is over, so what the test does next is seen by the watch alone.
 */
async function watch(service: DownloadsService): Promise<CopyWatcher> {
  let looks = 0;
  const watcher = new CopyWatcher({
    copies: () => service.manager.lookup.copies(),
    check: async (ids) => {
      await service.checkCopies({ deep: false, ids });
      looks += 1;
    },
    log: silent,
    pollMs: 24 * HOUR,
    sweepMs: 24 * HOUR,
  });
  service.changes.add((view) => view.state === 'saved' && watcher.followSoon());
  watcher.start();
  cleanup.push(async () => {
    watcher.stop();
    await watcher.idle();
  });
  await until("the watcher's first look at the folders", () => looks > 0);
  await watcher.idle();
  return watcher;
}

/**
 * Copies of jobs a and b saved on a "drive": a folder on /dev/shm's tmpfs, reached through a link where a
 * drive would be mounted (the folder the user chose). Skips where /dev/shm is not apart from /tmp.
 */
async function savedOnDrive(context: TestContext, prefix: string) {
  const drive = tempDir('/dev/shm', prefix);
  const home = tempDir(tmpdir(), 'mount-');
  skipUnless(context, statSync(drive).dev !== statSync(home).dev, 'a tmpfs at /dev/shm apart from /tmp');
  const mountPoint = join(home, 'archive');
  symlinkSync(drive, mountPoint);
  const { service } = queue(home);
  await saveAll(service, ['a', 'b'], mountPoint);
  return { drive, mountPoint, service };
}

const told = (seen: DownloadView[], jobId: string, state: DownloadView['state']) =>
  seen.some((v) => v.jobId === jobId && v.state === state);

describe('the record of copies follows the disk', () => {
  it('tells a copy deleted, moved away or edited on disk as an event, without a reload or the hourly check', async () => {
    const dir = tempDir(tmpdir(), 'copy-watch-');
    const { service, seen } = queue(dir);
    // Shown lost and left so: fetching back is the next test's subject.
    service.preferences.update((p) => ({ ...p, restoreLost: false }));
    const folder = join(dir, 'out');
    const paths = await saveAll(service, ['del', 'moved', 'edited', 'kept'], folder);
    await watch(service);

    rmSync(paths.get('del')!);
    renameSync(paths.get('moved')!, join(dir, 'elsewhere.mp4'));
    // Same length, other bytes: only the content tells.
    writeFileSync(paths.get('edited')!, patternBytes(3002, 99));

    await until('the deleted copy to be told missing', () => told(seen, 'del', 'missing'), 15_000);
    await until('the moved copy to be told missing', () => told(seen, 'moved', 'missing'), 15_000);
    await until('the edited copy to be told changed', () => told(seen, 'edited', 'changed'), 15_000);
    const states = Object.fromEntries([...service.manager.lookup.copies()].map((e) => [e.jobId, e.state]));
    expect(states).toEqual({ del: 'missing', moved: 'missing', edited: 'changed', kept: 'saved' });
  }, 60_000);

  it('fetches a lost Library copy back while its link lives, and says so with the time left', async () => {
    const dir = tempDir(tmpdir(), 'copy-back-');
    const { service, seen } = queue(dir);
    const paths = await saveAll(service, ['lost'], join(dir, 'out'));
    await watch(service);
    const before = seen.length;
    rmSync(paths.get('lost')!);
    await until('the copy to be fetched again', () => seen.slice(before).some((v) => v.refetchedAt !== null), 15_000);
    await until(
      'the copy to be saved again',
      () => service.manager.forJob('lost')[0].state === 'saved' && existsSync(paths.get('lost')!),
    );

    const notice = lostCopiesNotice(
      [{ ...service.manager.forJob('lost')[0], state: 'missing', reason: null }],
      (id) => completedJob(id, 'u'),
      NOW,
      true,
    );
    expect(notice?.title).toBe('Fetching back a lost copy');
    expect(notice?.body).toContain('deleted or moved; fetching it again, its link has 4 d 4 h left.');
  }, 60_000);

  it('pauses saving into a folder whose drive is gone: nothing is written in its place, and the drive is named', async (context) => {
    const { drive, mountPoint, service } = await savedOnDrive(context, 'drive-');

    // Unmounted: the mount point is an empty folder on the system disk again.
    rmSync(mountPoint);
    mkdirSync(mountPoint);
    const moved = await service.checkCopies({ deep: false });
    expect(moved.map((c) => c.state)).toEqual(['missing', 'missing']);
    expect(moved.every((c) => isDriveMissing(c.reason))).toBe(true);
    expect(service.manager.totals().pausedReason).toContain(`The drive holding ${mountPoint} is missing`);
    await expect(
      service.start({ jobIds: ['c'], folder: mountPoint, template: '{id}', origin: 'library' }),
    ).rejects.toThrow(`The drive holding ${mountPoint} is missing`);
    // A copy asked back in its place waits for the drive rather than filling the mount point.
    await service.restore([{ jobId: 'a', folder: mountPoint, relativeName: 'a.mp4' }], 'library');
    await service.whenIdle();
    expect(readdirSync(mountPoint)).toEqual([]);
    expect(lostCopiesNotice(moved, (id) => completedJob(id, 'u'), NOW, true)?.title).toBe(
      'A drive holding saved copies is missing',
    );

    // Mounted again: its copies are there, and nothing waits any more.
    rmSync(mountPoint, { recursive: true });
    symlinkSync(drive, mountPoint);
    await service.checkCopies({ deep: false });
    await service.whenIdle();
    expect(service.manager.totals().pausedReason).toBeNull();
    expect(service.manager.forJob('b').map((e) => e.state)).toEqual(['saved']);
  }, 60_000);

  it('a copy check begun before the drive went reads the drive when it finds a copy missing', async (context) => {
    const { mountPoint, service } = await savedOnDrive(context, 'drive-race-');

    // Two looks overlap (under load, the full suite): one looked at the drives while it was there, and its
    // copy check runs after the drive went. The copies are the drive's, not deleted ones to fetch again.
    await service.manager.checkDrives();
    rmSync(mountPoint);
    mkdirSync(mountPoint);
    const moved = await service.manager.verifySaved({ deep: false });
    expect(moved.map((c) => c.state)).toEqual(['missing', 'missing']);
    expect(moved.every((c) => isDriveMissing(c.reason))).toBe(true);
    await service.checkCopies({ deep: false });
    await service.whenIdle();
    expect(readdirSync(mountPoint)).toEqual([]);
    expect([...service.manager.lookup.copies()].map((e) => e.state)).toEqual(['missing', 'missing']);
  }, 60_000);

  it('a drive found gone at a look that asked after no folder still marks its copies: the rows agree with the banner', async (context) => {
    const { drive, mountPoint, service } = await savedOnDrive(context, 'drive-look-');

    // Gone without its watch hearing (a bind mount let go, another volume mounted at once): the 10 s look
    // asks after no folder (none is unwatched), and finds the drive missing.
    rmSync(mountPoint);
    mkdirSync(mountPoint);
    const moved = await service.checkCopies({ deep: false, ids: [] });
    expect(service.manager.totals().pausedReason).toContain(`The drive holding ${mountPoint} is missing`);
    // Before, only the banner said so: the rows said Saved until the minute's sweep.
    expect(moved.map((c) => [c.jobId, c.state]).sort()).toEqual([
      ['a', 'missing'],
      ['b', 'missing'],
    ]);
    expect(moved.every((c) => isDriveMissing(c.reason))).toBe(true);

    // Back: its copies are saved again at the next such look.
    rmSync(mountPoint, { recursive: true });
    symlinkSync(drive, mountPoint);
    const back = await service.checkCopies({ deep: false, ids: [] });
    expect(back.map((c) => c.state)).toEqual(['saved', 'saved']);
    expect(service.manager.totals().pausedReason).toBeNull();
  }, 60_000);
});
