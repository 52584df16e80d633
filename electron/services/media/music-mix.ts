import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  analysisArgs,
  loudnessArgs,
  mixArgs,
  mixLengthMs,
  parseLevels,
  parseLoudnorm,
  speechSpans,
  type LoudnessMeasure,
} from '../../common/composition/music-mix-args';
import type { LoudnessTarget } from '../../common/composition/music-schema';
import type { SceneMusicPlan } from '../../common/composition/music-track';
import type { MediaInfo } from '../../common/composition/media-info';
import type { MediaProber } from './probe';
import type { ProcessRunner } from './process';

/**
 * Mixes a scene's music under its voice with ffmpeg (music-mix-args.ts): the one mix the local
 * preview plays and the submit sends as the scene's voice. Mixes are kept by a fingerprint of their
 * inputs (files by path, size and time; settings), so previewing again or submitting what was
 * previewed reuses the same file.
 */
export interface MusicMixerDeps {
  runner: ProcessRunner;
  ffmpeg: () => Promise<string>;
  prober: MediaProber;
  /** Where mixes are kept. */
  dir: string;
}

export interface MusicMixRequest {
  /** The voice as a local file, or null for music alone. */
  voicePath: string | null;
  musicPath: string;
  plan: Pick<SceneMusicPlan, 'track' | 'offsetMs' | 'fadeIn' | 'fadeOut' | 'minLengthMs' | 'loudness'>;
  /** Names the scene in messages: "Scene 2 (intro)". */
  label: string;
  signal?: AbortSignal;
}

export interface MusicMixResult {
  path: string;
  durationMs: number;
  /** The mix's integrated loudness as loudnorm measured it, LUFS (null for silence). */
  lufs: number | null;
  /** 'linear' (one gain) or 'dynamic' (loudnorm had to compress to keep the true peak). */
  normalization: string;
}

/** Mixing passes at most: the first, and corrections of its gain while the limiter takes some back. */
const MIX_ATTEMPTS = 3;

/** Whether loudnorm can bring this measured mix to the target with one gain (its linear mode's own test). */
export function linearReach(measured: LoudnessMeasure, target: LoudnessTarget): boolean {
  if (measured.inputI === null) return false;
  const offset = target.lufs - measured.inputI;
  return Math.abs(offset) <= 0.5 || measured.inputTp + offset <= target.truePeakDb;
}

/** The music's loudness is read from at most its first ten minutes. */
const MUSIC_MEASURE_MS = 10 * 60 * 1000;

export class MusicMixError extends Error {
  override name = 'MusicMixError';
}

type Analysis = { levels: ReturnType<typeof parseLevels>; loudness: LoudnessMeasure };

/** Analyses kept by one mixer (a few KB each). */
const KEPT_ANALYSES = 256;

export class MusicMixer {
  /**
   * Finished analyses by file version (path, size, time of change): the scenes of a project and the
   * rows of a campaign that share one music file have it measured once, not once a mix.
   */
  private readonly analyses = new Map<string, Analysis>();
  /**
   * Mixes being made, by their file: the canvas's Play and Preview ask for a scene's mix at the same
   * moment after the music changes, and the second caller waits for the first one's ffmpeg passes
   * instead of running the same analyses and passes again beside them.
   */
  private readonly making = new Map<string, Promise<MusicMixResult>>();

  constructor(private readonly deps: MusicMixerDeps) {}

  async mix(request: MusicMixRequest): Promise<MusicMixResult> {
    const { label, plan } = request;
    const music = await this.sound(request.musicPath, `${label}: the music (${plan.track.name})`, request.signal);
    const voice = request.voicePath ? await this.sound(request.voicePath, `${label}: the voice`, request.signal) : null;
    const voiceMs = voice?.durationMs ?? 0;
    const lengthMs = mixLengthMs(voiceMs, plan.minLengthMs);
    if (lengthMs <= 0) throw new MusicMixError(`${label}: the scene has no length to put music under`);

    const key = await this.fingerprint(request, lengthMs);
    const path = join(this.deps.dir, `mix-${key}.mp3`);
    const known = await this.kept(path);
    if (known) return known;
    const underWay = this.making.get(path);
    if (underWay) {
      try {
        return await untilAborted(underWay, request.signal);
      } catch (error) {
        // The first caller cancelled its own mix: this caller still wants it, so it makes it itself.
        if (!isAbort(error) || request.signal?.aborted) throw error;
      }
    }
    const made = this.make(request, path, music, voice, lengthMs);
    this.making.set(path, made);
    try {
      return await made;
    } finally {
      if (this.making.get(path) === made) this.making.delete(path);
    }
  }

  private async make(
    request: MusicMixRequest,
    path: string,
    music: MediaInfo,
    voice: MediaInfo | null,
    lengthMs: number,
  ): Promise<MusicMixResult> {
    const { label, plan } = request;
    const voiceMs = voice?.durationMs ?? 0;
    const bin = await this.deps.ffmpeg();
    const voiceFacts = request.voicePath
      ? await this.analyse(bin, request.voicePath, true, `${label}: the voice`, request.signal)
      : null;
    const musicFacts = await this.analyse(bin, request.musicPath, false, `${label}: the music`, request.signal);
    // The music sits `levelDb` under the voice; with no voice, under the loudness target.
    const reference = voiceFacts?.loudness.inputI ?? plan.loudness.lufs;
    const musicGainDb =
      musicFacts.loudness.inputI === null ? 0 : reference + plan.track.levelDb - musicFacts.loudness.inputI;
    const speech = voiceFacts ? speechSpans(voiceFacts.levels, voiceFacts.loudness.inputI, lengthMs) : [];
    // Music alone is brought to where it would sit under a voice at the target, not to the target itself.
    const target: LoudnessTarget = voice
      ? plan.loudness
      : { ...plan.loudness, lufs: Math.max(-40, plan.loudness.lufs + plan.track.levelDb) };

    await mkdir(this.deps.dir, { recursive: true });
    // Working files of this call alone: another mixer on the same folder can make the same mix at once
    // (each finished mix is renamed into place whole, so the later one only replaces it with the same).
    const working = `${path}.${process.pid}-${randomUUID().slice(0, 8)}`;
    const wav = `${working}.wav`;
    const part = `${working}.part.mp3`;
    try {
      const sources = {
        voicePath: request.voicePath,
        voiceMs,
        music: { path: request.musicPath, durationMs: music.durationMs ?? 0 },
        plan,
        musicGainDb,
        speech,
      };
      // The voice's loudness is the first guess of the gain; the limiter may take some of it back, so
      // the guess is corrected (at most twice) until one linear gain can finish the job.
      let mixGainDb = voiceFacts?.loudness.inputI != null ? target.lufs - voiceFacts.loudness.inputI : 0;
      let measured = silentMeasure();
      for (let attempt = 0; attempt < MIX_ATTEMPTS; attempt += 1) {
        const first = await this.run(
          bin,
          mixArgs({ ...sources, mixGainDb }, lengthMs, target, wav),
          `${label}: mixing the music`,
          request.signal,
        );
        measured = parseLoudnorm(first) ?? silentMeasure();
        if (measured.inputI === null || linearReach(measured, target)) break;
        mixGainDb += target.lufs - measured.inputI;
      }
      const second = await this.run(
        bin,
        loudnessArgs(wav, measured, target, part),
        `${label}: bringing the mix to ${target.lufs} LUFS`,
        request.signal,
      );
      const out = parseLoudnorm(second);
      const result: MusicMixResult = {
        path,
        durationMs: lengthMs,
        lufs: out?.outputI ?? null,
        normalization: out?.normalization ?? 'none',
      };
      await rename(part, path);
      await writeFile(
        `${path}.json`,
        JSON.stringify({ durationMs: result.durationMs, lufs: result.lufs, normalization: result.normalization }),
      );
      return result;
    } finally {
      await rm(wav, { force: true });
      await rm(part, { force: true });
    }
  }

  /** A file that holds a sound ffmpeg can read, or a MusicMixError saying what is wrong with it. */
  private async sound(path: string, what: string, signal?: AbortSignal): Promise<MediaInfo> {
    const info = await this.deps.prober.probe(path, signal).catch(() => null);
    if (!info)
      throw new MusicMixError(
        `${what} is not a sound the studio can read (it may be empty, cut short or of another type)`,
      );
    if (!info.hasAudio) throw new MusicMixError(`${what} has no sound in it`);
    if (!info.durationMs || info.durationMs <= 0)
      throw new MusicMixError(`${what} has no length ffmpeg can read (it may be cut short)`);
    return info;
  }

  private async analyse(
    bin: string,
    path: string,
    levels: boolean,
    what: string,
    signal?: AbortSignal,
  ): Promise<Analysis> {
    const file = await stat(path).catch(() => null);
    const key = file && `${levels}:${file.ino}:${file.size}:${file.mtimeMs}:${path}`;
    const known = key ? this.analyses.get(key) : undefined;
    if (known) return known;
    const result = await this.deps.runner.run(
      bin,
      analysisArgs(path, { levels, maxMs: levels ? undefined : MUSIC_MEASURE_MS }),
      { signal },
    );
    if (result.aborted) throw abortError();
    if (result.code !== 0) throw new MusicMixError(`${what} could not be read: ${lastLine(result.stderr)}`);
    const analysis = {
      levels: levels ? parseLevels(result.stdout) : [],
      loudness: parseLoudnorm(result.stderr) ?? silentMeasure(),
    };
    if (key) this.analyses.set(key, analysis);
    if (this.analyses.size > KEPT_ANALYSES) this.analyses.delete(this.analyses.keys().next().value as string);
    return analysis;
  }

  private async run(bin: string, args: string[], what: string, signal?: AbortSignal): Promise<string> {
    const result = await this.deps.runner.run(bin, args, { signal });
    if (result.aborted) throw abortError();
    if (result.code !== 0) throw new MusicMixError(`${what} failed: ${lastLine(result.stderr)}`);
    return result.stderr;
  }

  private async fingerprint(request: MusicMixRequest, lengthMs: number): Promise<string> {
    const version = async (path: string | null): Promise<string | null> =>
      path ? stat(path).then((s) => `${path}:${s.size}:${s.mtimeMs}`) : null;
    const { name: _name, ...track } = request.plan.track;
    const { plan } = request;
    const facts = {
      voice: await version(request.voicePath),
      music: await version(request.musicPath),
      track,
      offsetMs: plan.offsetMs,
      fadeIn: plan.fadeIn,
      fadeOut: plan.fadeOut,
      lengthMs,
      loudness: plan.loudness,
    };
    return createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 32);
  }

  private async kept(path: string): Promise<MusicMixResult | null> {
    try {
      const facts = JSON.parse(await readFile(`${path}.json`, 'utf8')) as Omit<MusicMixResult, 'path'>;
      await stat(path);
      return { path, ...facts };
    } catch {
      return null;
    }
  }
}

function silentMeasure(): LoudnessMeasure {
  return {
    inputI: null,
    inputTp: -99,
    inputLra: 0,
    inputThresh: -70,
    targetOffset: 0,
    outputI: null,
    normalization: 'none',
  };
}

function lastLine(stderr: string): string {
  return stderr.trim().split('\n').filter(Boolean).at(-1) ?? 'ffmpeg failed without a message';
}

/** `work`, or an AbortError as soon as this caller's own signal aborts (the work goes on for others). */
function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(abortError());
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function abortError(): Error {
  return new DOMException('The music mix was cancelled', 'AbortError');
}
