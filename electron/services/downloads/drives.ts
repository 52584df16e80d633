import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type DownloadEntry } from '../../common/bridge/downloads';
import { driveMissingReason } from '../../common/bridge/download-words';

/**
 * What the drive check reads of a path: its device id, whether it is a folder, and when it was made
 * (0 or absent where the file system does not say); null when absent.
 */
export type StatDevice = (
  path: string,
) => Promise<{ dev: number; isDirectory(): boolean; birthtimeMs?: number } | null>;

const statOrNull: StatDevice = (path) => stat(path).catch(() => null);

/** Where a write would land: the device, whether the folder itself is there, and the volume (see volumeOf). */
interface Landing {
  dev: number;
  exists: boolean;
  volume: string | null;
}

/**
 * Where a write into `folder` would land: the device of the folder, or of its nearest existing parent
 * when the folder is gone (mkdir would make it there). Null when nothing up to the root can be read.
 */
async function landingDevice(folder: string, read: StatDevice): Promise<Landing | null> {
  for (let path = folder; ; path = dirname(path)) {
    const info = await read(path);
    if (info)
      return {
        dev: info.dev,
        exists: path === folder && info.isDirectory(),
        volume: await volumeOf(path, info.dev, read),
      };
    if (dirname(path) === path) return null;
  }
}

/**
 * Which volume a path is on: its device and when the root of its file system there was made. A device
 * number is reused (another drive in the same port, a fresh tmpfs at the same mount point gets the same
 * one), the time its root was made is not; null where the file system does not keep that time.
 */
async function volumeOf(path: string, dev: number, read: StatDevice): Promise<string | null> {
  let made = 0;
  for (let at = path; ; at = dirname(at)) {
    const info = await read(at);
    if (!info || info.dev !== dev) break;
    // The topmost folder still on this device is the root of its file system.
    made = info.birthtimeMs ?? 0;
    if (dirname(at) === at) break;
  }
  return made > 0 ? `${dev}:${Math.round(made)}` : null;
}

/** A folder copies were saved in and the drive (device, volume) one of them was saved on. */
export type RecordedDrive = Pick<DownloadEntry, 'folder' | 'folderDev' | 'folderVolume'>;

/**
 * Folders whose drive is gone. A folder's device is recorded with each copy saved there (`folderDev`);
 * when a write into the folder would now land on another device, the drive holding it was unplugged or
 * unmounted, and its mount point (an empty folder on the system disk) or the parent mkdir would create it
 * in is not the place the user chose. Saving there waits until the drive is back, and a copy there is
 * not fetched again into the empty folder (the issue: 97 files refilled on the system disk).
 *
 * It keeps each folder's drives, not its copies: read from the record once, before the first check (a
 * million copies are a few folders on a few drives), then told of each copy saved (saw).
 */
export class MissingDrives {
  private readonly missing = new Map<string, string>();
  /** Each folder's drives, by `dev` and volume. */
  private readonly folders = new Map<string, Map<string, RecordedDrive>>();
  private reading: Promise<void> | null = null;

  constructor(
    private readonly recorded: () => AsyncIterable<RecordedDrive> | Iterable<RecordedDrive>,
    /** The set of missing drives changed (the queue's banner follows it). */
    private readonly changed: () => void,
    private readonly read: StatDevice = statOrNull,
    /** The copies saved in a folder, looked at when its drive seems another (see check). */
    private readonly copiesIn: (folder: string) => Iterable<DownloadEntry> = () => [],
  ) {}

  /** The device of a folder a copy was just saved in, to record with it; null when it cannot be read. */
  async deviceOf(folder: string): Promise<number | null> {
    return (await this.read(folder))?.dev ?? null;
  }

  /** The device and volume of a folder a copy was just saved in, to record with it. */
  async identityOf(folder: string): Promise<Pick<DownloadEntry, 'folderDev' | 'folderVolume'>> {
    const landing = await landingDevice(folder, this.read);
    return { folderDev: landing?.dev ?? null, folderVolume: landing?.volume ?? null };
  }

  /** A copy was saved (or adopted) with its folder's drive: that folder is checked against it from now on. */
  saw(copy: RecordedDrive): void {
    if (copy.folderDev == null) return;
    const drives = this.folders.get(copy.folder) ?? new Map<string, RecordedDrive>();
    drives.set(`${copy.folderDev}\0${copy.folderVolume ?? ''}`, {
      folder: copy.folder,
      folderDev: copy.folderDev,
      folderVolume: copy.folderVolume ?? null,
    });
    this.folders.set(copy.folder, drives);
  }

  /** Why saving into this folder waits (its drive is missing), or null; remembered for known(). */
  async check(folder: string): Promise<string | null> {
    await this.readRecorded();
    const recorded = [...(this.folders.get(folder)?.values() ?? [])];
    let reason: string | null = null;
    if (recorded.length > 0) {
      const now = await landingDevice(folder, this.read);
      // The same device, and the same volume where both were told: another volume at the mount point
      // (another drive, a fresh file system) is not the drive the copies were saved on.
      const same = (e: RecordedDrive, at: Landing) =>
        e.folderDev === at.dev && (e.folderVolume == null || at.volume === null || e.folderVolume === at.volume);
      if (now === null || !recorded.some((e) => same(e, now))) {
        // A drive plugged in again can come back under another device number: finding the copies saved
        // on it says it is the same drive, whose new number is then known.
        if (now?.exists && (await this.holdsItsCopies(folder)))
          this.saw({ folder, folderDev: now.dev, folderVolume: now.volume });
        else reason = driveMissingReason(folder);
      }
    }
    if (this.missing.get(folder) === (reason ?? undefined)) return reason;
    if (reason === null) this.missing.delete(folder);
    else this.missing.set(folder, reason);
    this.changed();
    return reason;
  }

  /** Checks every folder that holds recorded copies; answers the folders whose drive came back. */
  async checkAll(): Promise<string[]> {
    await this.readRecorded();
    const back: string[] = [];
    for (const folder of new Set([...this.folders.keys(), ...this.missing.keys()])) {
      const was = this.missing.has(folder);
      if ((await this.check(folder)) === null && was) back.push(folder);
    }
    return back;
  }

  /** The last check's answer for this folder, without reading the disk. */
  known(folder: string): string | null {
    return this.missing.get(folder) ?? null;
  }

  /** The folders whose drive the last checks found missing. */
  missingFolders(): string[] {
    return [...this.missing.keys()];
  }

  /** What the queue's banner says while any drive is missing, or null. */
  reason(): string | null {
    return this.missing.size > 0 ? [...this.missing.values()].join(' ') : null;
  }

  /** The drives of the copies recorded, read once (those saved since are told by saw()). */
  private readRecorded(): Promise<void> {
    // A record that cannot be read (closed at shutdown) leaves what was read: checks go on with it.
    this.reading ??= (async () => {
      for await (const copy of this.recorded()) this.saw(copy);
    })().catch(() => undefined);
    return this.reading;
  }

  private async holdsItsCopies(folder: string): Promise<boolean> {
    for (const entry of this.copiesIn(folder)) {
      if (entry.savedPath === null || entry.state === 'cancelled' || entry.folderDev == null) continue;
      const info = await stat(entry.savedPath).catch(() => null);
      if (info?.isFile() && info.size === entry.bytes) return true;
    }
    return false;
  }
}
