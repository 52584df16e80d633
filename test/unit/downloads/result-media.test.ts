// The Library's thumbnails, lengths and sizes, read from saved copies of the real media corpus with the
// npm ffmpeg 4.1 the studio falls back to and with the system's ffmpeg when the machine has one.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadView, ResultMedia } from '@common/bridge/downloads';
import type { JobRecord } from '@common/bridge/jobs';
import { ResultMediaReader, type ResultMediaDeps } from '../../../electron/services/downloads/result-media';
import { MediaTools } from '../../../electron/services/media/media-tools';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { ensureCorpus } from '../../media-corpus/make-corpus';
import { mediaToolGenerations } from '../../media-tools-env';

function savedEntry(jobId: string, path: string, extra: Partial<DownloadView> = {}): DownloadView {
  const size = statSync(path).size;
  return {
    id: `dl-${jobId}`,
    jobId,
    url: `https://cdn.test/${jobId}`,
    folder: '/',
    relativeName: path,
    requestedName: null,
    state: 'saved',
    reason: null,
    bytes: size,
    totalBytes: size,
    etag: null,
    lastModified: null,
    attempts: 0,
    savedPath: path,
    sha256: `sha-${jobId}`,
    mtimeMs: 1,
    verifiedAt: 1,
    refetchedAt: null,
    origin: 'library',
    batchId: null,
    createdAt: 1,
    updatedAt: 1,
    bytesPerSecond: null,
    secondsLeft: null,
    ...extra,
  };
}

function job(id: string, answer: unknown = null): JobRecord {
  return { id, answer } as JobRecord;
}

/** Width and height of a JPEG data URL, from its start-of-frame marker. */
function jpegSize(dataUrl: string): { width: number; height: number } {
  const bytes = Buffer.from(dataUrl.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
  expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
  for (let at = 2; at < bytes.length;) {
    const marker = bytes[at + 1];
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  throw new Error('no frame header');
}

interface Harness {
  reader: ResultMediaReader;
  events: ResultMedia[];
  frames: string[];
}

describe.each(mediaToolGenerations())('Library media with $label', ({ ffmpeg, ffprobe }) => {
  let corpus: string;
  let work: string;
  const runner = new ProcessRunner();
  const prober = new MediaProber(async () => ffprobe, runner);

  beforeAll(() => {
    corpus = ensureCorpus();
    work = mkdtempSync(join(tmpdir(), 'result-media-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  function harness(
    dir: string,
    entries: Map<string, DownloadView[]>,
    jobs: Map<string, JobRecord> = new Map(),
  ): Harness {
    const tools = new MediaTools({
      runner,
      ffmpeg: async () => ffmpeg,
      dir: join(dir, 'scratch'),
      probe: (p) => prober.probe(p),
      concurrency: 1,
    });
    const events: ResultMedia[] = [];
    const frames: string[] = [];
    const deps: ResultMediaDeps = {
      dir: join(dir, 'facts'),
      probe: (path) => prober.probe(path),
      frame: (path, atMs, width) => {
        frames.push(path);
        return tools.frame(path, atMs, width);
      },
      job: (id) => jobs.get(id) ?? null,
      downloads: (jobId) => entries.get(jobId) ?? [],
      playUrl: (entry) => `/bridge/saved/${entry.id}`,
      emit: (media) => events.push(media),
    };
    return { reader: new ResultMediaReader(deps), events, frames };
  }

  /** Every corpus file a result could be, as a saved copy of its own job. */
  const FILES: Record<string, { thumbnail: boolean; durationMs: number | null }> = {
    'h264.mp4': { thumbnail: true, durationMs: 1500 },
    'hevc.mp4': { thumbnail: true, durationMs: 1200 },
    'phone.mov': { thumbnail: true, durationMs: 1500 },
    'vfr.mp4': { thumbnail: true, durationMs: 1500 },
    'fps60.mp4': { thumbnail: true, durationMs: 1200 },
    'tenbit.mp4': { thumbnail: true, durationMs: 1200 },
    'vp9.webm': { thumbnail: true, durationMs: 1200 },
    'mjpeg.avi': { thumbnail: true, durationMs: 1200 },
    // A video under a picture's name: its content decides.
    'mp4-named.jpg': { thumbnail: true, durationMs: 1500 },
    // Sound has a length and no picture (an MP3's cover art is not a frame of the result).
    'cover.mp3': { thumbnail: false, durationMs: 1500 },
    'mono-8k.wav': { thumbnail: false, durationMs: 1500 },
    'aac.m4a': { thumbnail: false, durationMs: 1500 },
    'opus.ogg': { thumbnail: false, durationMs: 1500 },
    // Cut short and empty: nothing is known, and nothing crashes.
    'truncated.mp4': { thumbnail: false, durationMs: null },
    'empty.mp4': { thumbnail: false, durationMs: null },
  };

  it('reads a still and a length from each saved copy in the background, and keeps them by content', async () => {
    const dir = mkdtempSync(join(work, 'corpus-'));
    const entries = new Map<string, DownloadView[]>();
    for (const name of Object.keys(FILES)) {
      const path = join(dir, name);
      copyFileSync(join(corpus, name), path);
      entries.set(name, [savedEntry(name, path)]);
    }
    const first = harness(dir, entries);
    const asked = await first.reader.describe(Object.keys(FILES));
    // The call answers before any ffmpeg has run: every copy is still to be read.
    expect(asked.every((m) => m.pending && m.thumbnail === null && m.source === 'copy')).toBe(true);
    expect(asked.map((m) => m.bytes)).toEqual(Object.keys(FILES).map((name) => statSync(join(dir, name)).size));
    await first.reader.idle();
    await new Promise((resolve) => setImmediate(resolve));
    const read = new Map(first.events.map((m) => [m.jobId, m]));
    for (const [name, want] of Object.entries(FILES)) {
      const media = read.get(name);
      expect(media, name).toBeDefined();
      expect({ name, thumbnail: media!.thumbnail !== null, pending: media!.pending }).toEqual({
        name,
        thumbnail: want.thumbnail,
        pending: false,
      });
      if (want.durationMs === null) expect(media!.durationMs, name).toBeNull();
      else expect(Math.abs(media!.durationMs! - want.durationMs), `${name}: ${media!.durationMs}`).toBeLessThan(150);
      if (media!.thumbnail) expect(jpegSize(media!.thumbnail).width, name).toBe(160);
      expect(media!.playUrl).toBe(`/bridge/saved/dl-${name}`);
    }
    expect(readdirSync(join(dir, 'facts')).length).toBe(Object.keys(FILES).length);

    // Another start (a new reader, same data folder): everything answers at once, and no frame is taken.
    const again = harness(dir, entries);
    const known = await again.reader.describe(Object.keys(FILES));
    expect(known.every((m) => !m.pending)).toBe(true);
    expect(known.find((m) => m.jobId === 'h264.mp4')?.thumbnail).toBe(read.get('h264.mp4')?.thumbnail);
    await again.reader.idle();
    expect(again.frames).toEqual([]);
    expect(again.events).toEqual([]);
  }, 120_000);

  it('asks ffmpeg once for a copy however often the Library looks while it is read', async () => {
    const dir = mkdtempSync(join(work, 'once-'));
    const path = join(dir, 'clip.mp4');
    copyFileSync(join(corpus, 'h264.mp4'), path);
    const entries = new Map([['j', [savedEntry('j', path)]]]);
    const { reader, events, frames } = harness(dir, entries);
    await Promise.all([reader.describe(['j']), reader.describe(['j']), reader.describe(['j'])]);
    await reader.idle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toEqual([path]);
    expect(events.length).toBe(1);
  }, 120_000);

  it('without a saved copy says what the service says, and leaves the rest unknown', async () => {
    const dir = mkdtempSync(join(work, 'service-'));
    const inFlight: DownloadView = {
      ...savedEntry('x', join(corpus, 'h264.mp4')),
      state: 'downloading',
      savedPath: null,
      totalBytes: 4_200_000,
    };
    const entries = new Map([['x', [inFlight]]]);
    const jobs = new Map([
      ['swap', job('swap', { video_duration: 12.5 })],
      ['x', job('x', { video: 'https://cdn.test/x.mp4' })],
      ['tts', job('tts', { url: 'https://cdn.test/a.mp3' })],
    ]);
    const { reader, frames } = harness(dir, entries, jobs);
    const answer = await reader.describe(['swap', 'x', 'tts', 'gone']);
    expect(answer).toEqual([
      {
        jobId: 'swap',
        thumbnail: null,
        durationMs: 12_500,
        bytes: null,
        source: 'service',
        pending: false,
        playUrl: null,
      },
      {
        jobId: 'x',
        thumbnail: null,
        durationMs: null,
        bytes: 4_200_000,
        source: 'service',
        pending: false,
        playUrl: null,
      },
      { jobId: 'tts', thumbnail: null, durationMs: null, bytes: null, source: 'none', pending: false, playUrl: null },
      { jobId: 'gone', thumbnail: null, durationMs: null, bytes: null, source: 'none', pending: false, playUrl: null },
    ]);
    expect(frames).toEqual([]);
  });

  it('reads a copy that is missing or changed on disk for nothing, and a broken cache file again', async () => {
    const dir = mkdtempSync(join(work, 'lost-'));
    const path = join(dir, 'clip.mp4');
    copyFileSync(join(corpus, 'h264.mp4'), path);
    const entries = new Map([
      ['m', [savedEntry('m', path, { state: 'missing' })]],
      ['k', [savedEntry('k', path)]],
    ]);
    const { reader, frames } = harness(dir, entries);
    // Its size is still known (the server said it when the copy was fetched); its picture is not read.
    expect((await reader.describe(['m']))[0]).toEqual({
      jobId: 'm',
      thumbnail: null,
      durationMs: null,
      bytes: statSync(path).size,
      source: 'service',
      pending: false,
      playUrl: null,
    });
    expect(frames).toEqual([]);
    // A cache file cut short (a crash while it was written by an older version) is read again, not trusted.
    const facts = join(dir, 'facts');
    rmSync(facts, { recursive: true, force: true });
    mkdirSync(facts);
    writeFileSync(join(facts, 'sha-k.json'), '{"thumbnail":');
    expect((await reader.describe(['k']))[0].pending).toBe(true);
    await reader.idle();
    expect(frames).toEqual([path]);
  }, 120_000);
});
