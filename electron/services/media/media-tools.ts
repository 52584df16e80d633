import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { describeFormat, UNSUPPORTED_PICTURES } from '../../common/composition/media-format';
import type { MediaInfo } from '../../common/composition/media-info';
import type { ProcessRunner } from './process';

/** Picture formats that can carry transparency: their stills are PNGs, so a logo keeps its alpha. */
export const TRANSPARENT_CAPABLE: ReadonlySet<string> = new Set(['png', 'webp', 'gif']);

/**
 * Small ffmpeg helpers the editor uses: a still frame of a media (thumbnails, filmstrips) and a
 * waveform's peaks (the renderer's CSP keeps it from fetching remote audio itself), each through a
 * temporary file in `dir` it removes; and a trimmed copy or a cut part of a voice, written where the caller says.
 */
export interface MediaToolsDeps {
  runner: ProcessRunner;
  ffmpeg: () => Promise<string>;
  dir: string;
  /** What the file is: a picture is never seeked into (ffmpeg 5.1 writes nothing for `-ss 0 -i x.jpg`). */
  probe: (path: string) => Promise<MediaInfo>;
  /** How many frames and waveforms are read at once; default: one fewer than the cores, at least one. */
  concurrency?: number;
}

type Waveform = { peaks: number[]; durationMs: number };

const WAVEFORM_RATE = 8000;
const TRIM_FADE_MS = 150;
/** Waveforms kept in memory: a few hundred numbers each, asked again whenever a list of voices is shown. */
const WAVEFORMS_KEPT = 200;

export class MediaTools {
  private counter = 0;
  /**
   * A page asks for many glances at once (a voice list's waveforms, a filmstrip's frames). Unbounded,
   * they started an ffmpeg each and starved the host's own calls on a small machine.
   */
  private readonly glances: PQueue;
  private readonly waveforms = new Map<string, Promise<Waveform>>();

  constructor(private readonly deps: MediaToolsDeps) {
    this.glances = new PQueue({ concurrency: deps.concurrency ?? Math.max(1, availableParallelism() - 1) });
  }

  /** JPEG bytes of the frame at `atMs` (any time, for a picture), `width` pixels wide (height keeps the aspect). */
  frame(path: string, atMs: number, width: number): Promise<Buffer> {
    return this.glances.add(() => this.takeFrame(path, atMs, width), { throwOnTimeout: true });
  }

  private async takeFrame(path: string, atMs: number, width: number): Promise<Buffer> {
    const info = await this.deps.probe(path).catch(() => null);
    // Whether an ffmpeg decodes these depends on its build; the studio refuses them everywhere alike.
    if (info && UNSUPPORTED_PICTURES.has(info.format))
      throw new Error(`${describeFormat(info.format)} is not a picture the studio takes; use a JPEG or PNG copy`);
    const seek = info?.kind === 'image' ? [] : ['-ss', (atMs / 1000).toFixed(3)];
    // A picture that may be transparent (a logo, an overlay) keeps its alpha as a PNG; the rest are JPEGs.
    const out = await this.temp(info?.kind === 'image' && TRANSPARENT_CAPABLE.has(info.format) ? 'png' : 'jpg');
    try {
      const args = [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-loglevel',
        'error',
        ...seek,
        '-i',
        path,
        '-frames:v',
        '1',
        '-vf',
        `scale=${width}:-2`,
        '-q:v',
        '5',
        '-f',
        'image2',
        out,
      ];
      await this.ffmpeg(args, 'take a frame');
      const bytes = await readFile(out).catch(() => null);
      if (!bytes || bytes.length === 0) throw new Error(`there is no frame at ${(atMs / 1000).toFixed(1)} s`);
      return bytes;
    } finally {
      await rm(out, { force: true });
    }
  }

  /**
   * `buckets` peak levels (0..1) across the whole sound track, and its length. Kept per file version
   * (size and modification time), so showing the same voices again reads nothing.
   */
  async waveform(path: string, buckets: number): Promise<Waveform> {
    const version = await stat(path).then(
      (s) => `${s.size}:${s.mtimeMs}`,
      () => 'missing',
    );
    const key = `${path}|${version}|${buckets}`;
    const kept = this.waveforms.get(key);
    if (kept) return kept;
    const reading = this.glances.add(() => this.readWaveform(path, buckets), { throwOnTimeout: true });
    this.waveforms.set(key, reading);
    if (this.waveforms.size > WAVEFORMS_KEPT) this.waveforms.delete(this.waveforms.keys().next().value!);
    // A failed read is not kept: the file may be there next time.
    reading.catch(() => this.waveforms.get(key) === reading && this.waveforms.delete(key));
    return reading;
  }

  private async readWaveform(path: string, buckets: number): Promise<Waveform> {
    const out = await this.temp('raw');
    try {
      await this.ffmpeg(
        [
          '-hide_banner',
          '-nostdin',
          '-y',
          '-loglevel',
          'error',
          '-i',
          path,
          '-vn',
          '-ac',
          '1',
          '-ar',
          String(WAVEFORM_RATE),
          '-f',
          's16le',
          out,
        ],
        'read the sound',
      );
      const bytes = await readFile(out);
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2));
      return { peaks: peaksOf(samples, buckets), durationMs: Math.round((samples.length / WAVEFORM_RATE) * 1000) };
    } finally {
      await rm(out, { force: true });
    }
  }

  /**
   * The first `durationMs` of a sound as an MP3 at `outPath`, fading out over its last 150 ms so it
   * does not end with a click (the service would cut it dead at the scene's end).
   */
  async trimAudio(path: string, durationMs: number, outPath: string): Promise<void> {
    const seconds = durationMs / 1000;
    const fade = Math.min(TRIM_FADE_MS, durationMs / 2) / 1000;
    const filter = `afade=t=out:st=${(seconds - fade).toFixed(3)}:d=${fade.toFixed(3)}`;
    await this.ffmpeg(
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-loglevel',
        'error',
        '-i',
        path,
        '-vn',
        '-t',
        seconds.toFixed(3),
        '-af',
        filter,
        '-c:a',
        'libmp3lame',
        '-q:a',
        '2',
        outPath,
      ],
      'trim the sound',
    );
  }

  /**
   * The sound from `fromMs` to `toMs` as an MP3 at `outPath`: one part of a scene sent in parts
   * (scene-parts.ts). No fades: the parts play one after another, so together they are the whole sound.
   */
  async cutAudio(path: string, fromMs: number, toMs: number, outPath: string): Promise<void> {
    const args = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-i', path, '-vn'];
    // -ss after -i: decoded up to the cut, so it falls on the sample, not the nearest frame.
    if (fromMs > 0) args.push('-ss', (fromMs / 1000).toFixed(3));
    args.push('-t', ((toMs - fromMs) / 1000).toFixed(3), '-c:a', 'libmp3lame', '-q:a', '2', outPath);
    await this.ffmpeg(args, 'cut the sound');
  }

  private async ffmpeg(args: string[], what: string): Promise<void> {
    const result = await this.deps.runner.run(await this.deps.ffmpeg(), args);
    if (result.code !== 0)
      throw new Error(`ffmpeg could not ${what}: ${result.stderr.trim().split('\n').at(-1) ?? 'unknown error'}`);
  }

  private async temp(ext: string): Promise<string> {
    await mkdir(this.deps.dir, { recursive: true });
    return join(this.deps.dir, `${process.pid}-${Date.now().toString(36)}-${++this.counter}.${ext}`);
  }
}

/** Largest absolute sample per bucket, scaled to 0..1. */
export function peaksOf(samples: Int16Array, buckets: number): number[] {
  const peaks = new Array<number>(buckets).fill(0);
  if (samples.length === 0) return peaks;
  const size = samples.length / buckets;
  for (let b = 0; b < buckets; b += 1) {
    const start = Math.floor(b * size);
    const end = Math.max(start + 1, Math.floor((b + 1) * size));
    let max = 0;
    for (let i = start; i < end && i < samples.length; i += 1) {
      const v = Math.abs(samples[i]);
      if (v > max) max = v;
    }
    peaks[b] = Math.round((max / 32768) * 1000) / 1000;
  }
  return peaks;
}
