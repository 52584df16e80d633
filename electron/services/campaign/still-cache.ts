import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Pictures drawn once and kept on disk, each under a key made of everything the picture depends on, so
 * a row's thumbnail is drawn by ffmpeg once however often a page asks for it (and again only when what
 * it shows changed). Bounded: past its limits the least recently used pictures are removed.
 */
export interface StillCacheLimits {
  maxBytes: number;
  maxFiles: number;
}

/** Enough for several thousand rows' thumbnails; a few hundred megabytes at most. */
export const STILL_CACHE_LIMITS: StillCacheLimits = { maxBytes: 256 * 1024 ** 2, maxFiles: 12_000 };

/** A cache key from the parts a picture depends on (their order matters). */
export function stillKey(...parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

interface Entry {
  bytes: number;
  usedAt: number;
}

export class StillCache {
  /** What is on disk, by key: read from the folder at the first use, then kept up to date here. */
  private index: Promise<Map<string, Entry>> | null = null;

  constructor(
    private readonly dir: string,
    private readonly limits: StillCacheLimits = STILL_CACHE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The picture kept under `key`, or null; a hit counts as a use (the last used are kept longest). */
  async get(key: string): Promise<Buffer | null> {
    const index = await this.entries();
    const entry = index.get(key);
    if (!entry) return null;
    try {
      const bytes = await readFile(this.pathOf(key));
      entry.usedAt = this.now();
      const at = new Date(entry.usedAt);
      await utimes(this.pathOf(key), at, at).catch(() => undefined);
      return bytes;
    } catch {
      // Removed from under the cache (a user cleaning the data folder): drawn again.
      index.delete(key);
      return null;
    }
  }

  /** Keeps `bytes` under `key` (written whole or not at all), then makes room within the limits. */
  async put(key: string, bytes: Buffer): Promise<void> {
    const index = await this.entries();
    await mkdir(this.dir, { recursive: true });
    const part = join(this.dir, `${key}.${randomBytes(4).toString('hex')}.part`);
    await writeFile(part, bytes);
    await rename(part, this.pathOf(key));
    index.set(key, { bytes: bytes.length, usedAt: this.now() });
    await this.prune(index);
  }

  /** Whether a picture is kept under `key` (for tests and the bench). */
  async has(key: string): Promise<boolean> {
    return (await this.entries()).has(key);
  }

  private async prune(index: Map<string, Entry>): Promise<void> {
    let bytes = [...index.values()].reduce((sum, e) => sum + e.bytes, 0);
    if (bytes <= this.limits.maxBytes && index.size <= this.limits.maxFiles) return;
    const oldestFirst = [...index.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
    for (const [key, entry] of oldestFirst) {
      if (bytes <= this.limits.maxBytes && index.size <= this.limits.maxFiles) break;
      index.delete(key);
      bytes -= entry.bytes;
      await rm(this.pathOf(key), { force: true });
    }
  }

  private entries(): Promise<Map<string, Entry>> {
    this.index ??= this.readIndex();
    return this.index;
  }

  private async readIndex(): Promise<Map<string, Entry>> {
    const index = new Map<string, Entry>();
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(this.dir, name);
      // A write cut short by a crash left its part: never a picture.
      if (name.endsWith('.part')) {
        await rm(path, { force: true });
        continue;
      }
      if (!name.endsWith('.still')) continue;
      const info = await stat(path).catch(() => null);
      if (info) index.set(name.slice(0, -'.still'.length), { bytes: info.size, usedAt: info.mtimeMs });
    }
    return index;
  }

  private pathOf(key: string): string {
    return join(this.dir, `${key}.still`);
  }
}
