// A drive's device number comes back for another volume: a fresh tmpfs mounted at the same mount point
// got the same one (seen here: unmounted, mounted again empty, `stat` said dev 40 both times), as does
// another drive in the same port. The studio then took the empty new volume for the drive and wrote the
// archive's copies onto it. The volume is told apart by when the root of its file system was made.
import { describe, expect, it } from 'vitest';
import type { DownloadEntry } from '../../../electron/common/bridge/downloads';
import { isDriveMissing } from '../../../electron/common/bridge/download-words';
import { MissingDrives, type StatDevice } from '../../../electron/services/downloads/drives';

type Node = { dev: number; birthtimeMs: number };

/** A file system tree by path: the system disk (dev 2, no birth times) with a drive mounted at /mnt/drive. */
function disk(nodes: Record<string, Node>): StatDevice {
  return async (path) => {
    const node = nodes[path];
    return node ? { dev: node.dev, birthtimeMs: node.birthtimeMs, isDirectory: () => true } : null;
  };
}

const system = { '/': { dev: 2, birthtimeMs: 0 }, '/mnt': { dev: 2, birthtimeMs: 0 } };
const FOLDER = '/mnt/drive/Archive';

function copy(patch: Partial<DownloadEntry>): DownloadEntry {
  return {
    id: 'c1',
    jobId: 'j1',
    url: 'http://127.0.0.1/1.mp4',
    folder: FOLDER,
    relativeName: 'Clip 01.mp4',
    requestedName: 'Clip 01.mp4',
    state: 'saved',
    reason: null,
    bytes: 10,
    totalBytes: 10,
    etag: null,
    lastModified: null,
    attempts: 0,
    savedPath: `${FOLDER}/Clip 01.mp4`,
    sha256: null,
    mtimeMs: null,
    verifiedAt: null,
    refetchedAt: null,
    origin: 'archive',
    batchId: null,
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  };
}

describe('a drive told by its volume, not only its device number', () => {
  it('records the volume a copy was saved on, and calls another volume at the same mount point a missing drive', async () => {
    const mounted = disk({
      ...system,
      '/mnt/drive': { dev: 40, birthtimeMs: 1_000 },
      [FOLDER]: { dev: 40, birthtimeMs: 1_500 },
    });
    const entries: DownloadEntry[] = [];
    const recorder = new MissingDrives(
      () => entries,
      () => undefined,
      mounted,
    );
    const identity = await recorder.identityOf(FOLDER);
    expect(identity).toEqual({ folderDev: 40, folderVolume: '40:1000' });
    entries.push(copy(identity));
    expect(await recorder.check(FOLDER)).toBeNull();

    // Unmounted, then a fresh, empty volume mounted there: the same device number, another volume.
    const remounted = disk({ ...system, '/mnt/drive': { dev: 40, birthtimeMs: 9_000 } });
    const drives = new MissingDrives(
      () => entries,
      () => undefined,
      remounted,
    );
    const reason = await drives.check(FOLDER);
    expect(isDriveMissing(reason)).toBe(true);
    expect(drives.reason()).toContain(`The drive holding ${FOLDER} is missing`);

    // The drive itself back (the same volume): nothing is missing.
    const back = new MissingDrives(
      () => entries,
      () => undefined,
      mounted,
    );
    expect(await back.check(FOLDER)).toBeNull();
  });

  it('keeps to the device alone where the file system tells no birth time, and for copies saved before volumes were recorded', async () => {
    const plain = disk({ ...system, '/mnt/drive': { dev: 40, birthtimeMs: 0 }, [FOLDER]: { dev: 40, birthtimeMs: 0 } });
    const entries = [copy({ folderDev: 40, folderVolume: null }), copy({ id: 'c2', folderDev: 40 })];
    const drives = new MissingDrives(
      () => entries,
      () => undefined,
      plain,
    );
    expect(await drives.identityOf(FOLDER)).toEqual({ folderDev: 40, folderVolume: null });
    expect(await drives.check(FOLDER)).toBeNull();
    // A folder the user deleted on the same drive is a folder emptied, not a drive gone.
    const deleted = disk({ ...system, '/mnt/drive': { dev: 40, birthtimeMs: 1_000 } });
    const old = [copy({ folderDev: 40, folderVolume: '40:1000' })];
    expect(
      await new MissingDrives(
        () => old,
        () => undefined,
        deleted,
      ).check(FOLDER),
    ).toBeNull();
  });
});
