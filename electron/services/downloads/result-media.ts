import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { z } from 'zod';
import type { DownloadView, ResultMedia } from '../../common/bridge/downloads';
import type { JobRecord } from '../../common/bridge/jobs';
import type { MediaInfo } from '../../common/composition/media-info';
import type { Logger } from '../host/types';

/** What a saved copy says of itself, kept per content in the data folder (a copy's bytes never change). */
const CopyFacts = z.object({
  thumbnail: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** Why ffmpeg could read nothing, kept so a broken file is not read again at every look. */
  problem: z.string().nullable(),
});
type CopyFacts = z.infer<typeof CopyFacts>;

export interface ResultMediaDeps {
  /** Where the facts are kept: `<dataDir>/media/library`. */
  dir: string;
  /** A JPEG of one frame of a local file (the media tools' frame grab). */
  frame(path: string, atMs: number, width: number): Promise<Buffer>;
  probe(path: string): Promise<MediaInfo>;
  /** The job as the ledger has it now, or null when the Library no longer holds it. */
  job(id: string): JobRecord | null;
  /** The job's downloads, newest first. */
  downloads(jobId: string): readonly DownloadView[];
  /** Where the page plays a saved copy; null where the host has no such address (the desktop app). */
  playUrl(entry: DownloadView): string | null;
  /** A copy's facts became known after the call that asked said pending. */
  emit(media: ResultMedia): void;
  log?: Logger;
}

/** Twice the cell's width, so the still stays sharp on a HiDPI screen. */
const THUMB_WIDTH = 160;
/** The still is taken a little in (the first frame of a clip is often black or a fade). */
const THUMB_AT_MS = 1000;

/**
 * Thumbnails, lengths and sizes for the Library. A verified saved copy is read once with ffprobe and one
 * ffmpeg frame, off the caller's path and one copy at a time (the Library's list never waits for them,
 * and the host's other ffmpeg work is not crowded out); what it gave is kept by content hash, in memory
 * and on disk, so a restart or a rename reads nothing again. Without a copy, only what the service's
 * answer says is used, and what nobody knows stays unknown.
 */
export class ResultMediaReader {
  private readonly known = new Map<string, CopyFacts>();
  private readonly reading = new Map<string, Promise<CopyFacts>>();
  private readonly queue = new PQueue({ concurrency: 1 });

  constructor(private readonly deps: ResultMediaDeps) {}

  /** What is known of these jobs' results now; copies not read yet are read in the background. */
  async describe(jobIds: readonly string[]): Promise<ResultMedia[]> {
    const out: ResultMedia[] = [];
    for (const jobId of jobIds) out.push(await this.describeOne(jobId));
    return out;
  }

  private async describeOne(jobId: string): Promise<ResultMedia> {
    const copy = savedCopyOf(this.deps.downloads(jobId));
    const job = this.deps.job(jobId);
    if (!copy || copy.savedPath === null) return fromService(jobId, job, this.deps.downloads(jobId));
    const key = factsKey(copy);
    const facts = this.known.get(key) ?? (await this.fromDisk(key));
    const base = { jobId, bytes: copy.bytes, source: 'copy' as const, playUrl: this.deps.playUrl(copy) };
    if (facts) return { ...base, ...shown(facts, job), pending: false };
    const path = copy.savedPath;
    if (!this.reading.has(key)) {
      const reading = this.queue.add(() => this.read(key, path, job), { throwOnTimeout: true });
      this.reading.set(key, reading);
      void reading
        .then((read) => this.deps.emit({ ...base, ...shown(read, job), pending: false }))
        .finally(() => this.reading.delete(key));
    }
    return { ...base, thumbnail: null, durationMs: null, pending: true };
  }

  private async read(key: string, path: string, job: JobRecord | null): Promise<CopyFacts> {
    let facts: CopyFacts;
    try {
      const info = await this.deps.probe(path);
      let thumbnail: string | null = null;
      if (info.hasVideo && info.kind === 'video') {
        const at = info.durationMs !== null && info.durationMs < 2 * THUMB_AT_MS ? 0 : THUMB_AT_MS;
        const jpeg = await this.deps.frame(path, at, THUMB_WIDTH).catch(() => this.deps.frame(path, 0, THUMB_WIDTH));
        thumbnail = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
      }
      facts = { thumbnail, durationMs: info.durationMs, problem: null };
    } catch (error) {
      this.deps.log?.warn('a saved copy could not be read for the Library', { job: job?.id, error });
      facts = { thumbnail: null, durationMs: null, problem: (error as Error).message };
    }
    this.known.set(key, facts);
    await this.toDisk(key, facts).catch((error: unknown) =>
      this.deps.log?.warn('library media facts not kept', { error }),
    );
    return facts;
  }

  private async fromDisk(key: string): Promise<CopyFacts | null> {
    try {
      const facts = CopyFacts.parse(JSON.parse(await readFile(join(this.deps.dir, `${key}.json`), 'utf8')));
      this.known.set(key, facts);
      return facts;
    } catch {
      return null;
    }
  }

  private async toDisk(key: string, facts: CopyFacts): Promise<void> {
    await mkdir(this.deps.dir, { recursive: true });
    const file = join(this.deps.dir, `${key}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify(facts));
    await rename(`${file}.tmp`, file);
  }

  /** Settles when every copy asked about so far has been read (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue.onIdle();
  }

  dispose(): void {
    this.queue.clear();
  }
}

/** The copy to read: a user's own before the archive's (the same bytes either way once verified). */
function savedCopyOf(entries: readonly DownloadView[]): DownloadView | undefined {
  const saved = entries.filter((d) => d.state === 'saved' && d.savedPath !== null);
  return saved.find((d) => d.origin !== 'archive') ?? saved[0];
}

/** By content where the hash is known (a rename or a second copy reads nothing again), else by file. */
function factsKey(copy: DownloadView): string {
  if (copy.sha256) return copy.sha256;
  return createHash('sha256')
    .update(`${copy.savedPath}\0${copy.bytes}\0${copy.mtimeMs ?? ''}`)
    .digest('hex');
}

function shown(facts: CopyFacts, job: JobRecord | null): Pick<ResultMedia, 'thumbnail' | 'durationMs'> {
  return { thumbnail: facts.thumbnail, durationMs: facts.durationMs ?? serviceDuration(job) };
}

/**
 * Without a saved copy: the length the service states (character swap's `video_duration`, in seconds)
 * and the size the result's server gave while it was being downloaded. The service returns no picture
 * of a result, so there is no thumbnail.
 */
function fromService(jobId: string, job: JobRecord | null, entries: readonly DownloadView[]): ResultMedia {
  const durationMs = serviceDuration(job);
  const bytes = entries.find((d) => d.totalBytes !== null && d.state !== 'cancelled')?.totalBytes ?? null;
  const source = durationMs !== null || bytes !== null ? 'service' : 'none';
  return { jobId, thumbnail: null, durationMs, bytes, source, pending: false, playUrl: null };
}

function serviceDuration(job: JobRecord | null): number | null {
  const answer = job?.answer;
  if (!answer || typeof answer !== 'object') return null;
  const seconds = (answer as { video_duration?: unknown }).video_duration;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null;
}
