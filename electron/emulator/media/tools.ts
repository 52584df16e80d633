import type { MediaInfo } from '../../common/composition/media-info';
import { resolveMediaBinary } from '../../services/system/binaries';
import { MediaProber } from '../../services/media/probe';
import { ProcessRunner } from '../../services/media/process';
import { findSpeechEngine, type SpeechEngine } from '../../services/media/speech-engine';
import { UnchangingProbes } from './unchanging-probes';

/**
 * ffmpeg, ffprobe and espeak-ng for the sandbox: found the way the app finds them, except that the
 * binaries shipped with the studio come before the system's (resolveMediaBinary's `preferShipped`;
 * espeak-ng by the services' own lookup, which the editor's draft voice uses too),
 * run through the services' ProcessRunner so stop() kills whatever still runs.
 */
export class MediaTools {
  readonly runner = new ProcessRunner();
  private speech?: SpeechEngine | 'none';
  private readonly prober: MediaProber;
  private readonly probes: UnchangingProbes;
  private ffmpegPath?: Promise<string>;
  private ffprobePath?: Promise<string>;

  constructor(
    private readonly paths: { ffmpegPath?: string; ffprobePath?: string; espeakPath?: string; searchSystem?: boolean },
    /** Folders whose files never change once written (results, the catalogue): each is probed once. */
    unchangingDirs: readonly string[] = [],
  ) {
    this.prober = new MediaProber(() => this.ffprobe(), this.runner);
    this.probes = new UnchangingProbes(unchangingDirs, (path, signal) => this.prober.probe(path, signal));
  }

  ffmpeg(): Promise<string> {
    this.ffmpegPath ??= resolveMediaBinary('ffmpeg', {
      settings: { ffmpegPath: this.paths.ffmpegPath ?? null },
      preferShipped: true,
    }).then((b) => b.path);
    return this.ffmpegPath;
  }

  ffprobe(): Promise<string> {
    this.ffprobePath ??= resolveMediaBinary('ffprobe', {
      settings: { ffprobePath: this.paths.ffprobePath ?? null },
      preferShipped: true,
    }).then((b) => b.path);
    return this.ffprobePath;
  }

  probe(path: string, signal?: AbortSignal): Promise<MediaInfo> {
    return this.probes.read(path, signal);
  }

  /** `path` was just written as a copy of a file these facts describe: it is not probed again. */
  copied(path: string, facts: Promise<MediaInfo>): Promise<void> {
    return this.probes.copied(path, facts);
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

  /**
   * How the sandbox speaks: the system espeak-ng, or else espeak-ng's WebAssembly build from npm run by
   * Node as a separate program (so `npm install` alone gives real speech); null when neither is there.
   */
  espeak(): SpeechEngine | null {
    this.speech ??= findSpeechEngine(this.paths);
    return this.speech === 'none' ? null : this.speech;
  }

  async runEspeak(args: string[], signal?: AbortSignal): Promise<void> {
    const engine = this.espeak();
    if (!engine)
      throw new Error(
        `espeak-ng is not installed${this.paths.espeakPath ? ` at ${this.paths.espeakPath}` : ''}: the sandbox speaks text with the system espeak-ng (apt install espeak-ng) or the npm package espeak-ng`,
      );
    const result = await this.runner.run(engine.bin, [...engine.prefix, ...args], { signal });
    if (result.aborted) throw new Error('render stopped');
    if (result.code !== 0)
      throw new Error(`espeak-ng failed: ${lastLine(result.stderr) || `exit code ${result.code}`}`);
  }

  stop(): Promise<void> {
    return this.runner.killAll();
  }
}

export function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}
