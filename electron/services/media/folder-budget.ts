import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface CachedFile {
  path: string;
  size: number;
  /** Last use for eviction: the later of access and modification time. */
  used: number;
}

export interface FolderBudgetOptions {
  dir: string;
  maxBytes: number;
  /** Reads the folder afresh at least this often, to learn what other processes added (default 60 s). */
  rescanMs?: number;
  now?: () => number;
  /** Lists the folder's files (tests count the reads); default: readdir and stat. */
  scan?: (dir: string) => Promise<CachedFile[]>;
}

/**
 * A size-capped folder of cached files, least recently used evicted first. Reading the whole folder on
 * every addition made a long campaign quadratic (each voiceover fetched stat-ed every file before it:
 * 20,000 of them by the end of 10,000 rows), so the total is kept here and the folder is read again only
 * when that total passes the cap or the last read is old: another process sharing the folder (the studio
 * and a command-line run) is then counted too.
 */
export class FolderBudget {
  private total: number | null = null;
  private scannedAt = 0;
  private readonly now: () => number;
  private readonly scan: (dir: string) => Promise<CachedFile[]>;
  private trimming: Promise<void> | null = null;

  constructor(private readonly options: FolderBudgetOptions) {
    this.now = options.now ?? Date.now;
    this.scan = options.scan ?? scanFolder;
  }

  /** Counts a file just written (`bytes`) and evicts old ones if the folder is over its cap; never `keep`. */
  async added(bytes: number, keep?: string): Promise<void> {
    if (this.total !== null) this.total += bytes;
    const stale = this.now() - this.scannedAt >= (this.options.rescanMs ?? 60_000);
    if (this.total !== null && this.total <= this.options.maxBytes && !stale) return;
    // One read at a time: additions during it are counted by the read itself (they are on disk by then).
    this.trimming ??= this.trim(keep).finally(() => (this.trimming = null));
    await this.trimming;
  }

  private async trim(keep?: string): Promise<void> {
    this.scannedAt = this.now();
    const files = await this.scan(this.options.dir);
    let total = files.reduce((sum, f) => sum + f.size, 0);
    for (const file of files.sort((a, b) => a.used - b.used)) {
      if (total <= this.options.maxBytes) break;
      if (file.path === keep) continue;
      await rm(file.path, { force: true });
      total -= file.size;
    }
    this.total = total;
  }
}

async function scanFolder(dir: string): Promise<CachedFile[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(
    names
      .filter((name) => !name.endsWith('.part'))
      .map(async (name) => {
        const path = join(dir, name);
        const info = await stat(path).catch(() => null);
        return info?.isFile() ? { path, size: info.size, used: Math.max(info.atimeMs, info.mtimeMs) } : null;
      }),
  );
  return files.filter((f): f is CachedFile => f !== null);
}

/** Removes least recently used files (by mtime) until the folder fits in maxBytes; never `keep`. */
export function trimFolder(dir: string, maxBytes: number, keep?: string): Promise<void> {
  return new FolderBudget({ dir, maxBytes, rescanMs: 0 }).added(0, keep);
}
