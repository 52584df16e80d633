import { stat } from 'node:fs/promises';
import { MediaProbeError, parseFfprobeJson, type MediaInfo } from '../../common/composition/media-info';
import type { ProcessRunner } from './process';

const CACHE_ENTRIES = 500;

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
    const file = /^[a-z][a-z0-9+.-]+:/i.test(input) && !/^[A-Za-z]:[\\/]/.test(input) ? null : await stat(input).catch(() => null);
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
    const result = await this.runner.run(bin, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input], { signal });
    if (result.code !== 0) {
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

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}

function describe(input: string): string {
  return input.split(/[\\/]/).at(-1) ?? input;
}
