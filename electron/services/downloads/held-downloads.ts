import type { DownloadEntry } from '../../common/bridge/downloads';

/**
 * The download entries the manager holds (those under way, and ended ones until written), by id, and
 * also by job and by the path a copy was saved at: what the record answers for a job or a path is laid
 * under these, and a look through every entry held for each answer grows with a run's window. A Map,
 * so everything that reads the entries reads them as before; only `set`, `delete` and `clear` also keep
 * the indexes. An entry changed in place (its copy saved) is set again to be
 * indexed anew: the keys it was indexed under are remembered, not read from the changed entry.
 */
export class HeldDownloads extends Map<string, DownloadEntry> {
  private readonly byJob = new Map<string, Set<string>>();
  private readonly byPath = new Map<string, Set<string>>();
  private readonly indexedAs = new Map<string, { jobId: string; savedPath: string | null }>();

  override set(id: string, entry: DownloadEntry): this {
    this.unindex(id);
    super.set(id, entry);
    const keys = { jobId: entry.jobId, savedPath: entry.savedPath };
    this.indexedAs.set(id, keys);
    change(this.byJob, keys.jobId, id, true);
    if (keys.savedPath !== null) change(this.byPath, keys.savedPath, id, true);
    return this;
  }

  override delete(id: string): boolean {
    this.unindex(id);
    return super.delete(id);
  }

  override clear(): void {
    this.byJob.clear();
    this.byPath.clear();
    this.indexedAs.clear();
    super.clear();
  }

  /** The entries of one job, newest first. */
  ofJob(jobId: string): DownloadEntry[] {
    return this.pick(this.byJob.get(jobId)).sort((a, b) => b.createdAt - a.createdAt);
  }

  /** The entries whose copy was saved at this path. */
  savedAt(path: string): DownloadEntry[] {
    return this.pick(this.byPath.get(path));
  }

  private pick(ids: Set<string> | undefined): DownloadEntry[] {
    return [...(ids ?? [])].flatMap((id) => super.get(id) ?? []);
  }

  private unindex(id: string): void {
    const keys = this.indexedAs.get(id);
    if (!keys) return;
    this.indexedAs.delete(id);
    change(this.byJob, keys.jobId, id, false);
    if (keys.savedPath !== null) change(this.byPath, keys.savedPath, id, false);
  }
}

function change(index: Map<string, Set<string>>, key: string, id: string, add: boolean): void {
  const ids = index.get(key);
  if (add) {
    if (ids) ids.add(id);
    else index.set(key, new Set([id]));
    return;
  }
  ids?.delete(id);
  if (ids?.size === 0) index.delete(key);
}
