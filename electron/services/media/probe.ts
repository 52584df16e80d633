import { MediaProbeError, parseFfprobeJson, type MediaInfo } from '../../common/composition/media-info';
import type { ProcessRunner } from './process';

/** ffprobe of one local file (or URL ffprobe can read) → MediaInfo. */
export class MediaProber {
  constructor(
    private readonly ffprobe: () => Promise<string>,
    private readonly runner: ProcessRunner,
  ) {}

  async probe(input: string, signal?: AbortSignal): Promise<MediaInfo> {
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
