import { resolve } from 'node:path';
import type { DownloadEntry } from '../../common/bridge/downloads';
import { FINISHED } from './queue-names';
import type { QueueRecord } from './queue-records';

/**
 * Which ended downloads the manager holds in memory. A worker saves a copy for every row it makes, for
 * days: once a row is reported its copies leave memory (letGo), and the record keeps them. Whatever
 * looks at a path where such a copy may be (a row made again into the same file) takes the recorded
 * copies there back first (takeBackAt), so a file the studio saved is never taken for a stranger's.
 */
export class HeldCopies {
  constructor(
    private readonly held: Map<string, DownloadEntry>,
    private readonly record: Pick<QueueRecord, 'savedAt'>,
  ) {}

  /** These jobs' ended downloads leave memory (one under way stays). */
  letGo(jobIds: Iterable<string>): void {
    const jobs = new Set(jobIds);
    for (const [id, entry] of this.held) if (jobs.has(entry.jobId) && FINISHED.has(entry.state)) this.held.delete(id);
  }

  /**
   * The copy held as saved at `path`: its bytes and the hash taken as they were written, with the file's
   * time then (null: none held there, or saved before hashes were kept).
   */
  savedAt(path: string): { bytes: number; sha256: string; mtimeMs: number } | null {
    const target = resolve(path);
    for (const { state, savedPath, bytes, sha256, mtimeMs } of this.held.values()) {
      if (state !== 'saved' || savedPath === null || sha256 === null || mtimeMs === null) continue;
      if (resolve(savedPath) === target) return { bytes, sha256, mtimeMs };
    }
    return null;
  }

  /** The recorded copies at this path that are not in memory, held again (a read of the record). */
  takeBackAt(path: string): void {
    for (const entry of this.record.savedAt(path)) if (!this.held.has(entry.id)) this.held.set(entry.id, entry);
  }
}
