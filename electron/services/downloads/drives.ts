import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { driveMissingReason, type DownloadEntry } from '../../common/bridge/downloads';

/** What the drive check reads of a path: its device id and whether it is a folder; null when absent. */
export type StatDevice = (path: string) => Promise<{ dev: number; isDirectory(): boolean } | null>;

const statOrNull: StatDevice = (path) => stat(path).catch(() => null);

/**
 * Where a write into `folder` would land: the device of the folder, or of its nearest existing parent
 * when the folder is gone (mkdir would make it there). Null when nothing up to the root can be read.
 */
async function landingDevice(folder: string, read: StatDevice): Promise<{ dev: number; exists: boolean } | null> {
  for (let path = folder; ; path = dirname(path)) {
    const info = await read(path);
    if (info) return { dev: info.dev, exists: path === folder && info.isDirectory() };
    if (dirname(path) === path) return null;
  }
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

  /** Why saving into this folder waits (its drive is missing), or null; remembered for known(). */
  async check(folder: string): Promise<string | null> {
    const recorded = this.recorded(folder);
    let reason: string | null = null;
    if (recorded.length > 0) {
      const now = await landingDevice(folder, this.read);
      if (now === null || !recorded.some((e) => e.folderDev === now.dev)) {
        // A drive plugged in again can come back under another device number: finding the copies saved
        // on it says it is the same drive, whose new number is then recorded.
        if (now?.exists && (await this.holdsItsCopies(recorded))) for (const e of recorded) e.folderDev = now.dev;
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
