import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { MediaInfo } from '../../common/composition/media-info';
import { resolveMediaBinary } from '../../services/media/binaries';
import { MediaProber } from '../../services/media/probe';
import { ProcessRunner } from '../../services/media/process';

/**
 * ffmpeg, ffprobe and espeak-ng for the sandbox: found the way the app finds them (explicit path,
 * environment, PATH), run through the services' ProcessRunner so stop() kills whatever still runs.
 */
export class MediaTools {
  readonly runner = new ProcessRunner();
  private readonly prober: MediaProber;
  private ffmpegPath?: Promise<string>;
  private ffprobePath?: Promise<string>;

  constructor(private readonly paths: { ffmpegPath?: string; ffprobePath?: string; espeakPath?: string }) {
    this.prober = new MediaProber(() => this.ffprobe(), this.runner);
  }

  ffmpeg(): Promise<string> {
    this.ffmpegPath ??= resolveMediaBinary('ffmpeg', { settings: { ffmpegPath: this.paths.ffmpegPath ?? null } }).then((b) => b.path);
    return this.ffmpegPath;
  }

  ffprobe(): Promise<string> {
    this.ffprobePath ??= resolveMediaBinary('ffprobe', { settings: { ffprobePath: this.paths.ffprobePath ?? null } }).then((b) => b.path);
    return this.ffprobePath;
  }

  probe(path: string, signal?: AbortSignal): Promise<MediaInfo> {
    return this.prober.probe(path, signal);
  }

  /** Runs ffmpeg quietly and overwriting; throws with ffmpeg's last error line. */
  async runFfmpeg(args: string[], signal?: AbortSignal): Promise<void> {
    const bin = await this.ffmpeg();
    const result = await this.runner.run(bin, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { signal });
    if (result.aborted) throw new Error('render stopped');
    if (result.code !== 0) throw new Error(`ffmpeg failed: ${lastLine(result.stderr) || `exit code ${result.code}`}`);
  }

  /** Runs ffmpeg with arguments that already carry their own global options (the compositor's). */
  async runFfmpegArgs(args: string[], signal?: AbortSignal): Promise<void> {
    const bin = await this.ffmpeg();
    const result = await this.runner.run(bin, args, { signal });
    if (result.aborted) throw new Error('render stopped');
    if (result.code !== 0) throw new Error(`ffmpeg failed: ${lastLine(result.stderr) || `exit code ${result.code}`}`);
  }

  /** The espeak-ng binary, or null when it is not installed. */
  espeak(): string | null {
    // An explicit path is the only candidate (so a wrong one is reported, not silently replaced).
    const candidates = this.paths.espeakPath
      ? [this.paths.espeakPath]
      : ['/usr/bin/espeak-ng', ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'espeak-ng'))];
    for (const c of candidates) {
      if (!c) continue;
      try {
        accessSync(c, constants.X_OK);
        return c;
      } catch {
        // try the next place
      }
    }
    return null;
  }

  async runEspeak(args: string[], signal?: AbortSignal): Promise<void> {
    const bin = this.espeak();
    if (!bin) throw new Error(`espeak-ng is not installed${this.paths.espeakPath ? ` at ${this.paths.espeakPath}` : ''}: the sandbox speaks text with the system espeak-ng (apt install espeak-ng)`);
    const result = await this.runner.run(bin, args, { signal });
    if (result.aborted) throw new Error('render stopped');
    if (result.code !== 0) throw new Error(`espeak-ng failed: ${lastLine(result.stderr) || `exit code ${result.code}`}`);
  }

  stop(): Promise<void> {
    return this.runner.killAll();
  }
}

export function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}
