import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { driveMissingReason, type DownloadEntry } from '../../common/bridge/downloads';

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

/**
 * Folders whose drive is gone. A folder's device is recorded with each copy saved there (`folderDev`);
 * when a write into the folder would now land on another device, the drive holding it was unplugged or
 * unmounted, and its mount point (an empty folder on the system disk) or the parent mkdir would create it
 * in is not the place the user chose. Saving there waits until the drive is back, and a copy there is
 * not fetched again into the empty folder (the issue: 97 files refilled on the system disk).
 */
export class MissingDrives {
  private readonly missing = new Map<string, string>();

  constructor(
    private readonly entries: () => Iterable<DownloadEntry>,
    /** The set of missing drives changed (the queue's banner follows it). */
    private readonly changed: () => void,
    private readonly read: StatDevice = statOrNull,
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

  /** Why saving into this folder waits (its drive is missing), or null; remembered for known(). */
  async check(folder: string): Promise<string | null> {
    const recorded = this.recorded(folder);
    let reason: string | null = null;
    if (recorded.length > 0) {
      const now = await landingDevice(folder, this.read);
      // The same device, and the same volume where both were told: another volume at the mount point
      // (another drive, a fresh file system) is not the drive the copies were saved on.
      const same = (e: DownloadEntry, at: Landing) =>
        e.folderDev === at.dev && (e.folderVolume == null || at.volume === null || e.folderVolume === at.volume);
      if (now === null || !recorded.some((e) => same(e, now))) {
        // A drive plugged in again can come back under another device number: finding the copies saved
        // on it says it is the same drive, whose new number is then recorded.
        if (now?.exists && (await this.holdsItsCopies(recorded)))
          for (const e of recorded) Object.assign(e, { folderDev: now.dev, folderVolume: now.volume });
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
    const folders = new Set<string>();
    for (const entry of this.entries()) if (entry.folderDev != null) folders.add(entry.folder);
    const back: string[] = [];
    for (const folder of new Set([...folders, ...this.missing.keys()])) {
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

  /** Copies saved in this folder with a recorded device. */
  private recorded(folder: string): DownloadEntry[] {
    const out: DownloadEntry[] = [];
    for (const entry of this.entries()) if (entry.folder === folder && entry.folderDev != null) out.push(entry);
    return out;
  }

  private async holdsItsCopies(entries: readonly DownloadEntry[]): Promise<boolean> {
    for (const entry of entries) {
      if (entry.savedPath === null || entry.state === 'cancelled') continue;
      const info = await stat(entry.savedPath).catch(() => null);
      if (info?.isFile() && info.size === entry.bytes) return true;
    }
    return false;
  }
}
