import { open, stat } from 'node:fs/promises';
import { detectFormat, type MediaFormat } from '../../common/composition/media-format';
import { MediaProbeError, parseFfprobeJson, type MediaInfo } from '../../common/composition/media-info';
import type { ProcessRunner } from './process';

const CACHE_ENTRIES = 500;
/** ffprobe's arguments before the file: everything parseFfprobeJson reads. */
export const PROBE_ARGS = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams'];

/**
 * ffprobe of one local file (or URL ffprobe can read) → MediaInfo. Answers for local files are
 * remembered while the file's size and modification time stay the same, so re-rendering a preview
 * does not start one ffprobe per input again.
 */
export class MediaProber {
  private readonly known = new Map<string, MediaInfo>();

  constructor(
    private readonly ffprobe: () => Promise<string>,
    private readonly runner: ProcessRunner,
  ) {}

  async probe(input: string, signal?: AbortSignal): Promise<MediaInfo> {
    const file = isUrl(input) ? null : await stat(input).catch(() => null);
    const key = file?.isFile() ? `${input}\0${file.size}\0${file.mtimeMs}` : null;
    const cached = key ? this.known.get(key) : undefined;
    if (cached) return cached;
    const info = await this.run(input, signal);
    if (key) {
      if (this.known.size >= CACHE_ENTRIES) this.known.delete(this.known.keys().next().value as string);
      this.known.set(key, info);
    }
    return info;
  }

  private async run(input: string, signal?: AbortSignal): Promise<MediaInfo> {
    const bin = await this.ffprobe();
    const result = await this.runner.run(bin, [...PROBE_ARGS, input], { signal });
    if (result.code !== 0) {
      const heif = await heifBrandOf(input);
      if (heif) return unreadablePicture(heif);
      const reason = lastLine(result.stderr) || `ffprobe exited with code ${result.code}`;
      throw new MediaProbeError(`cannot read ${describe(input)}: ${reason}`);
    }
    try {
      return parseFfprobeJson(result.stdout);
    } catch (error) {
      throw new MediaProbeError(`cannot read ${describe(input)}: ${(error as Error).message}`);
    }
  }
}

/**
 * HEIC (and some AVIF) files are ISO-BMFF without a movie box: ffprobe gives up on them. They are named
 * from their `ftyp` brand so the user hears "HEIC picture" and what to do, not "moov atom not found".
 */
async function heifBrandOf(input: string): Promise<MediaFormat | null> {
  if (isUrl(input)) return null;
  const handle = await open(input, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    if (bytesRead < 12 || head.toString('latin1', 4, 8) !== 'ftyp') return null;
    const format = detectFormat({
      demuxer: 'mov,mp4',
      videoCodec: 'hevc',
      audioCodec: null,
      brand: head.toString('latin1', 8, 12),
    });
    return format === 'heic' || format === 'avif' ? format : null;
  } finally {
    await handle.close();
  }
}

/** A picture the studio knows the type of but cannot decode: no size, so isRealMedia() is false. */
function unreadablePicture(format: MediaFormat): MediaInfo {
  return {
    kind: 'image',
    durationMs: null,
    width: null,
    height: null,
    fps: null,
    videoCodec: null,
    audioCodec: null,
    hasVideo: true,
    hasAudio: false,
    sizeBytes: null,
    formatName: format,
    format,
    rotation: 0,
  };
}

/** A URL ffprobe reads itself, as opposed to a local path (a Windows drive letter is not a scheme). */
function isUrl(input: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(input) && !/^[A-Za-z]:[\\/]/.test(input);
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}

function describe(input: string): string {
  return input.split(/[\\/]/).at(-1) ?? input;
}
