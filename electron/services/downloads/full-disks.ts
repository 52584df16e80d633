import { stat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type DownloadEntry } from '../../common/bridge/downloads';
import { diskFullReason } from '../../common/bridge/download-words';
import { partPath } from './fetch-to-file';
import { targetOf } from './queue-names';

/**
 * Room freed on a full disk since it was found full, after which its downloads start again by
 * themselves: a file deleted to make room is far more than this, the churn of a busy disk rarely is.
 */
export const ROOM_AGAIN_BYTES = 256 * 1024;

/** The bytes free to this process on the disk holding a path (or its nearest existing parent); null if unknown. */
export type FreeBytes = (path: string) => Promise<number | null>;

const freeBytes: FreeBytes = async (path) => {
  for (let at = path; ; at = dirname(at)) {
    const info = await statfs(at).catch(() => null);
    if (info) return info.bavail * info.bsize;
    if (dirname(at) === at) return null;
  }
};

interface FullDisk {
  reason: string;
  folder: string;
  /** Free when it was found full: more than ROOM_AGAIN_BYTES above this is room again. */
  free: number | null;
}

/**
 * Disks found full, by device number, each with what to tell the user. Only the downloads writing to a
 * full disk wait (the archive's copies to another disk go on); all of them start again on resume, and
 * those of a disk given room again (roomAgain) without one: the banner goes with its cause.
 */
export class FullDisks {
  private readonly disks = new Map<number, FullDisk>();

  constructor(private readonly free: FreeBytes = freeBytes) {}

  /** What the queue tells the user while any disk is full, or null. */
  reason(): string | null {
    return this.disks.size > 0 ? [...this.disks.values()].map((d) => d.reason).join(' ') : null;
  }

  /** Why a download into this folder has to wait, or undefined when its disk is not known to be full. */
  async waitFor(folder: string): Promise<string | undefined> {
    if (this.disks.size === 0) return undefined;
    return this.disks.get(await diskOf(folder))?.reason;
  }

  /** Records the disk holding this folder as full; answers what to tell the user. */
  async markFull(folder: string): Promise<string> {
    const reason = diskFullReason(folder);
    this.disks.set(await diskOf(folder), { reason, folder, free: await this.free(folder) });
    return reason;
  }

  /**
   * Forgets each disk that has room again (space freed since it was found full, or the folder now on
   * another disk: a drive unplugged is then the drive check's to tell); answers whether any was.
   */
  async roomAgain(): Promise<boolean> {
    let any = false;
    for (const [dev, disk] of this.disks) {
      const now = await this.free(disk.folder);
      const moved = (await diskOf(disk.folder)) !== dev;
      if (moved || (now !== null && disk.free !== null && now - disk.free >= ROOM_AGAIN_BYTES)) {
        this.disks.delete(dev);
        any = true;
      }
    }
    return any;
  }

  clear(): void {
    this.disks.clear();
  }
}

/**
 * The bytes a download's `.part` holds: after a full disk, fewer than it received (what the disk
 * refused is not there), and what the line and the bar count for it while it waits.
 */
export async function keptBytes(entry: Pick<DownloadEntry, 'folder' | 'relativeName'>): Promise<number> {
  return (await stat(partPath(targetOf(entry.folder, entry.relativeName))).catch(() => null))?.size ?? 0;
}

/** The device a folder (or its nearest existing parent) lives on; -1 when none can be read. */
async function diskOf(folder: string): Promise<number> {
  for (let path = folder; ; path = dirname(path)) {
    const info = await stat(path).catch(() => null);
    if (info) return info.dev;
    if (dirname(path) === path) return -1;
  }
}
