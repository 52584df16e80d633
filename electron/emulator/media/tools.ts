import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { delimiter, join } from 'node:path';
import type { MediaInfo } from '../../common/composition/media-info';
import { resolveMediaBinary } from '../../services/media/binaries';
import { MediaProber } from '../../services/media/probe';
import { ProcessRunner } from '../../services/media/process';

/**
 * ffmpeg, ffprobe and espeak-ng for the sandbox: found the way the app finds them (explicit path,
 * environment, PATH), run through the services' ProcessRunner so stop() kills whatever still runs.
 */
export interface SpeechEngine {
  bin: string;
  /** Arguments before espeak-ng's own (the WebAssembly build's script). */
  prefix: string[];
  name: string;
}

const WASM_SPEECH_SCRIPT = fileURLToPath(new URL('./espeak-wasm.mjs', import.meta.url));

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findSpeechEngine(paths: { espeakPath?: string; searchSystem?: boolean }): SpeechEngine | 'none' {
  // An explicit path is the only candidate (so a wrong one is reported, not silently replaced).
  if (paths.espeakPath) return executable(paths.espeakPath) ? { bin: paths.espeakPath, prefix: [], name: 'espeak-ng' } : 'none';
  if (paths.searchSystem !== false) {
    for (const c of ['/usr/bin/espeak-ng', ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'espeak-ng'))]) {
      if (executable(c)) return { bin: c, prefix: [], name: 'espeak-ng' };
    }
  }
  // The desktop app's own binary cannot run scripts as Node (its fuses forbid it): system espeak-ng only.
  if (process.versions.electron || !existsSync(WASM_SPEECH_SCRIPT)) return 'none';
  try {
    createRequire(import.meta.url).resolve('espeak-ng');
  } catch {
    return 'none';
  }
  return { bin: process.execPath, prefix: [WASM_SPEECH_SCRIPT], name: 'espeak-ng (WebAssembly build from npm)' };
}

export class MediaTools {
  readonly runner = new ProcessRunner();
  private speech?: SpeechEngine | 'none';
  private readonly prober: MediaProber;
  private ffmpegPath?: Promise<string>;
  private ffprobePath?: Promise<string>;

  constructor(private readonly paths: { ffmpegPath?: string; ffprobePath?: string; espeakPath?: string; searchSystem?: boolean }) {
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
    if (!engine) throw new Error(`espeak-ng is not installed${this.paths.espeakPath ? ` at ${this.paths.espeakPath}` : ''}: the sandbox speaks text with the system espeak-ng (apt install espeak-ng) or the npm package espeak-ng`);
    const result = await this.runner.run(engine.bin, [...engine.prefix, ...args], { signal });
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
