import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Disks found full, by device number, each with what to tell the user. Only the downloads writing to a
 * full disk wait (the archive's copies to another disk go on); all of them start again on resume.
 */
export class FullDisks {
  private readonly disks = new Map<number, string>();

  /** What the queue tells the user while any disk is full, or null. */
  reason(): string | null {
    return this.disks.size > 0 ? [...this.disks.values()].join(' ') : null;
  }

  /** Why a download into this folder has to wait, or undefined when its disk is not known to be full. */
  async waitFor(folder: string): Promise<string | undefined> {
    if (this.disks.size === 0) return undefined;
    return this.disks.get(await diskOf(folder));
  }

  /** Records the disk holding this folder as full; answers what to tell the user. */
  async markFull(folder: string): Promise<string> {
    const reason = `The disk holding ${folder} is full. Downloads to it are paused and their partial files kept; free some space, then resume.`;
    this.disks.set(await diskOf(folder), reason);
    return reason;
  }

  clear(): void {
    this.disks.clear();
  }
}

/** The device a folder (or its nearest existing parent) lives on; -1 when none can be read. */
async function diskOf(folder: string): Promise<number> {
  for (let path = folder; ; path = dirname(path)) {
    const info = await stat(path).catch(() => null);
    if (info) return info.dev;
    if (dirname(path) === path) return -1;
  }
}
