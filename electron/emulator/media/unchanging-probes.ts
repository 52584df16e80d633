import { stat } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import type { MediaInfo } from '../../common/composition/media-info';

/** Enough for a long campaign's voiceovers in flight; the oldest facts go first. */
const MAX_KEPT = 5_000;

interface Kept {
  size: number;
  mtimeMs: number;
  info: Promise<MediaInfo>;
}

/**
 * What ffprobe said of the sandbox's own files, which never change once written (its results, its
 * catalogue's clips): an avatar video reads its voiceovers and its avatar's clip again, and each ffprobe
 * is a process started from a large one (about a fifth of the sandbox's CPU in a campaign). A file whose
 * size or time of change moved since is read again; any other file is always read.
 */
export class UnchangingProbes {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly dirs: readonly string[],
    private readonly probe: (path: string, signal?: AbortSignal) => Promise<MediaInfo>,
  ) {}

  async read(path: string, signal?: AbortSignal): Promise<MediaInfo> {
    if (!this.holds(path)) return this.probe(path, signal);
    const now = await stat(path);
    const known = this.kept.get(path);
    if (known && known.size === now.size && known.mtimeMs === now.mtimeMs) return known.info;
    return this.keep(path, now, this.probe(path, signal));
  }

  /** A file whose facts are known from its writing (a result copied from a fixture, or probed as it was made). */
  async copied(path: string, info: Promise<MediaInfo>): Promise<void> {
    if (this.holds(path)) this.keep(path, await stat(path), info);
  }

  private keep(path: string, file: { size: number; mtimeMs: number }, info: Promise<MediaInfo>): Promise<MediaInfo> {
    this.kept.delete(path);
    this.kept.set(path, { size: file.size, mtimeMs: file.mtimeMs, info });
    if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    // A read that failed is not kept: the next asks ffprobe again.
    info.catch(() => this.kept.get(path)?.info === info && this.kept.delete(path));
    return info;
  }

  private holds(path: string): boolean {
    return this.dirs.some((dir) => {
      const inside = relative(dir, path);
      return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
    });
  }
}
