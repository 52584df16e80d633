import { parseFfprobeJson, type MediaInfo } from '../../common/composition/media-info';
import { resolveMediaBinary } from '../../services/system/binaries';
import { MediaProber, PROBE_ARGS } from '../../services/media/probe';
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
    const result = await this.runner.run(bin, [...FFMPEG_QUIET, ...args], { signal });
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
    const engine = this.espeakOrThrow();
    const result = await this.runner.run(engine.bin, [...engine.prefix, ...args], { signal });
    if (result.aborted) throw new Error('render stopped');
    if (result.code !== 0)
      throw new Error(`espeak-ng failed: ${lastLine(result.stderr) || `exit code ${result.code}`}`);
  }

  /**
   * espeak-ng writes `wav`, ffmpeg turns it into `out` with `ffmpegArgs` (between its input and output),
   * and ffprobe reads `out`: its facts are kept, so the voiceover's length is known without another
   * start. On a POSIX system all three are started by one small shell: a process started from the
   * sandbox's own (a large one, beside a host) costs a copy of its page tables while the sandbox's
   * event loop waits, and every voiceover took three such starts. Elsewhere each is started on its own.
   */
  async speakToFile(
    espeakArgs: string[],
    wav: string,
    ffmpegArgs: string[],
    out: string,
    signal?: AbortSignal,
  ): Promise<void> {
    if (process.platform === 'win32') {
      await this.runEspeak([...espeakArgs, '-w', wav], signal);
      await this.runFfmpeg(['-i', wav, ...ffmpegArgs, out], signal);
      return;
    }
    const engine = this.espeakOrThrow();
    const [ffmpeg, ffprobe] = await Promise.all([this.ffmpeg(), this.ffprobe()]);
    // Every word quoted for the shell, so no path or argument is read as anything but itself. exec hands
    // the shell's process to ffprobe; stop() kills the shell, and what it started ends within moments.
    const words = (list: string[]) => list.map(shellWord).join(' ');
    const script = [
      `${words([engine.bin, ...engine.prefix, ...espeakArgs, '-w', wav])} || exit ${ESPEAK_FAILED}`,
      `${words([ffmpeg, ...FFMPEG_QUIET, '-i', wav, ...ffmpegArgs, out])} || exit ${FFMPEG_FAILED}`,
      `exec ${words([ffprobe, ...PROBE_ARGS, out])}`,
    ].join('\n');
    const result = await this.runner.run('/bin/sh', ['-c', script], { signal });
    if (result.aborted) throw new Error('render stopped');
    const why = lastLine(result.stderr) || `exit code ${result.code}`;
    if (result.code === ESPEAK_FAILED) throw new Error(`espeak-ng failed: ${why}`);
    if (result.code === FFMPEG_FAILED) throw new Error(`ffmpeg failed: ${why}`);
    // ffprobe could not read what ffmpeg wrote: the ordinary probe says why, as for any other file.
    if (result.code !== 0) return;
    let facts: MediaInfo;
    try {
      facts = parseFfprobeJson(result.stdout);
    } catch {
      return;
    }
    await this.probes.copied(out, Promise.resolve(facts));
  }

  private espeakOrThrow(): SpeechEngine {
    const engine = this.espeak();
    if (!engine)
      throw new Error(
        `espeak-ng is not installed${this.paths.espeakPath ? ` at ${this.paths.espeakPath}` : ''}: the sandbox speaks text with the system espeak-ng (apt install espeak-ng) or the npm package espeak-ng`,
      );
    return engine;
  }

  stop(): Promise<void> {
    return this.runner.killAll();
  }
}

const FFMPEG_QUIET = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];
/** The exit codes speakToFile's shell gives when espeak-ng or ffmpeg failed (theirs are 0, 1 or a signal). */
const ESPEAK_FAILED = 97;
const FFMPEG_FAILED = 98;

/** `word` as one word of a POSIX shell command, whatever characters it holds. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}
