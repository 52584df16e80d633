import { resolve } from 'node:path';
import type { DownloadEntry } from '../../common/bridge/downloads';
import type { QueueLookups } from './queue-records';

/**
 * The facts of a copy the studio saved at a path, for a worker that reports the file it made (its bytes
 * and the hash taken as they were written): what the manager holds first (a copy saved this moment,
 * not written yet), then the record, where every other copy is.
 */
export class HeldCopies {
  constructor(
    private readonly held: Map<string, DownloadEntry>,
    private readonly record: Pick<QueueLookups, 'savedAt'>,
  ) {}

  /**
   * The copy held or recorded as saved at `path`: its bytes and the hash taken as they were written,
   * with the file's time then (null: none there, or saved before hashes were kept).
   */
  savedAt(path: string): { bytes: number; sha256: string; mtimeMs: number } | null {
    const target = resolve(path);
    const facts = (entry: DownloadEntry) => {
      const { state, savedPath, bytes, sha256, mtimeMs } = entry;
      if (state !== 'saved' || savedPath === null || sha256 === null || mtimeMs === null) return null;
      return resolve(savedPath) === target ? { bytes, sha256, mtimeMs } : null;
    };
    for (const entry of this.held.values()) {
      const found = facts(entry);
      if (found) return found;
    }
    for (const entry of this.record.savedAt(target)) {
      const found = !this.held.has(entry.id) && facts(entry);
      if (found) return found;
    }
    return null;
  }
}
