import type { Span } from '../captions/caption-timing';
import type { LoudnessTarget } from './music-schema';
import type { SceneMusicPlan } from './music-track';

/**
 * The ffmpeg side of music under the voice, pure so it is pinned by golden tests and shared by the
 * preview and submit (the host's music mixer runs these; nothing else builds a mix).
 *
 * 1. analysisArgs: a sound's level every 100 ms (stdout) and its integrated loudness (stderr, loudnorm's
 *    JSON), for both the voice (where it speaks, how loud) and the music (how loud).
 * 2. speechSpans + duckingExpression: the ducking is a gain envelope keyed on where the voice speaks,
 *    rather than a compressor (sidechaincompress): a compressor's reduction follows the voice's level,
 *    so it cannot promise the "12 dB under speech" the user set; the envelope can, and it starts
 *    lowering the music just before a phrase, which a compressor cannot see coming.
 * 3. mixArgs: voice + looped/trimmed, levelled, faded, ducked music → a float WAV, measured by loudnorm
 *    in the same pass.
 * 4. loudnessArgs: the second loudnorm pass (linear when it can be: one gain for the whole scene)
 *    to the project's EBU R128 target → the MP3 that is heard in the preview and sent as the voice.
 * Every filter and option used here exists in ffmpeg 4.1 (the npm fallback) and 5.1+.
 */

export const MIX_RATE = 48000;
/** One level reading per this many ms. */
export const LEVEL_FRAME_MS = 100;
/** The music starts going down this long before a phrase and is fully down when it starts. */
export const DUCK_DOWN_MS = 250;
/** After a phrase the music stays down this long, then comes back up over DUCK_UP_MS. */
export const DUCK_HOLD_MS = 250;
export const DUCK_UP_MS = 600;
/** Speech is this far under the voice's integrated loudness at most (quieter frames are pauses). */
const SPEECH_BELOW_LUFS = 20;
const SPEECH_FLOOR_DB = -60;
/** Shorter bursts (a click, a breath) do not duck the music. */
const MIN_SPEECH_MS = 200;
/** The loudness range loudnorm may keep (ffmpeg 4.1 allows at most 20): wide, so one linear gain is used. */
const LOUDNESS_RANGE = 20;
/** The limiter holds sample peaks this far under the true-peak limit (a true peak lies between samples). */
const LIMITER_MARGIN_DB = 1;

const BASE = ['-hide_banner', '-nostdin', '-nostats', '-y'];
const sec = (ms: number): string => (ms / 1000).toFixed(3);

/** The integrated loudness of (the first `maxMs` of) a sound, and with `levels` its level readings. */
export function analysisArgs(path: string, options: { maxMs?: number; levels?: boolean } = {}): string[] {
  const limit = options.maxMs ? ['-t', sec(options.maxMs)] : [];
  const samples = Math.round((MIX_RATE * LEVEL_FRAME_MS) / 1000);
  const levels = options.levels
    ? [
        `asetnsamples=n=${samples}`,
        'astats=metadata=1:reset=1',
        'ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=-',
      ]
    : [];
  const filter = [`aresample=${MIX_RATE}`, ...levels, 'loudnorm=print_format=json'].join(',');
  return [...BASE, ...limit, '-i', path, '-vn', '-af', filter, '-f', 'null', '-'];
}

export interface LevelReading {
  atMs: number;
  db: number;
}

/** ametadata's print of RMS_level per frame → readings (a silent frame reads -inf, kept as the floor). */
export function parseLevels(stdout: string): LevelReading[] {
  const readings: LevelReading[] = [];
  let at: number | null = null;
  for (const line of stdout.split('\n')) {
    const time = /pts_time:\s*(-?[\d.]+)/.exec(line);
    if (time) {
      at = Math.round(Number(time[1]) * 1000);
      continue;
    }
    const level = /RMS_level=(\S+)/.exec(line);
    if (level && at !== null) {
      const db = Number(level[1]);
      readings.push({ atMs: at, db: Number.isFinite(db) ? db : -Infinity });
      at = null;
    }
  }
  return readings;
}

export interface LoudnessMeasure {
  /** Integrated loudness, LUFS; null when the sound is silent (loudnorm reports -inf). */
  inputI: number | null;
  inputTp: number;
  inputLra: number;
  inputThresh: number;
  targetOffset: number;
  /** The output's integrated loudness as loudnorm measured it (the second pass's answer). */
  outputI: number | null;
  normalization: string;
}

/** loudnorm's print_format=json block (the last one in ffmpeg's log), or null when there is none. */
export function parseLoudnorm(stderr: string): LoudnessMeasure | null {
  const blocks = stderr.match(/\{[^{}]*"input_i"[^{}]*\}/g);
  if (!blocks) return null;
  let raw: Record<string, string>;
  try {
    raw = JSON.parse(blocks[blocks.length - 1]) as Record<string, string>;
  } catch {
    return null;
  }
  const num = (key: string): number | null => {
    const value = Number(raw[key]);
    return Number.isFinite(value) ? value : null;
  };
  return {
    inputI: num('input_i'),
    inputTp: num('input_tp') ?? -99,
    inputLra: num('input_lra') ?? 0,
    inputThresh: num('input_thresh') ?? -70,
    targetOffset: num('target_offset') ?? 0,
    outputI: num('output_i'),
    normalization: raw.normalization_type ?? 'unknown',
  };
}

/**
 * Where the voice speaks, from its level readings: frames within SPEECH_BELOW_LUFS of its integrated
 * loudness. Phrases closer than the ducking's own ramps are joined (the music would not have time to
 * come back up between them), so the envelope's shapes never overlap.
 */
export function speechSpans(levels: readonly LevelReading[], voiceLufs: number | null, lengthMs: number): Span[] {
  if (voiceLufs === null) return [];
  const threshold = Math.max(SPEECH_FLOOR_DB, voiceLufs - SPEECH_BELOW_LUFS);
  const spans: Span[] = [];
  for (const reading of levels) {
    if (reading.db < threshold) continue;
    const end = Math.min(lengthMs, reading.atMs + LEVEL_FRAME_MS);
    const last = spans.at(-1);
    if (last && reading.atMs - last.endMs < DUCK_DOWN_MS + DUCK_HOLD_MS + DUCK_UP_MS) last.endMs = end;
    else spans.push({ startMs: reading.atMs, endMs: end });
  }
  return spans.filter((s) => s.endMs - s.startMs >= MIN_SPEECH_MS);
}

/**
 * The music's gain over time as a `volume` expression of t (seconds): 1 between phrases, −duckDb
 * under them, with ramps down before and up after each. Null when there is nothing to duck.
 */
export function duckingExpression(speech: readonly Span[], duckDb: number): string | null {
  if (duckDb <= 0 || speech.length === 0) return null;
  const shapes = speech.map((s) => {
    const down = sec(s.startMs - DUCK_DOWN_MS);
    const up = sec(s.endMs + DUCK_HOLD_MS + DUCK_UP_MS);
    return `clip((t-${down})/${sec(DUCK_DOWN_MS)},0,1)*clip((${up}-t)/${sec(DUCK_UP_MS)},0,1)`;
  });
  return `pow(10,-${duckDb}*(${shapes.join('+')})/20)`;
}

export interface MixSources {
  /** The voice file, or null for music alone. */
  voicePath: string | null;
  voiceMs: number;
  /** The music file and its length, or null when the music has ended before this scene (not looped). */
  music: { path: string; durationMs: number } | null;
  plan: Pick<SceneMusicPlan, 'track' | 'offsetMs' | 'fadeIn' | 'fadeOut' | 'minLengthMs'>;
  /** Gain put on the music before anything else, dB (its level against the voice). */
  musicGainDb: number;
  /**
   * Gain on the whole mix, dB: the first estimate of what brings it to the target (from the voice's own
   * loudness). With the limiter after it, the measured mix then needs only a small gain that the true
   * peak allows, so the second pass can be one linear gain rather than loudnorm's compression.
   */
  mixGainDb: number;
  speech: readonly Span[];
}

/** How long a scene's mix lasts: its voice, or the scene when it is longer (an avatar video's scene). */
export function mixLengthMs(voiceMs: number, minLengthMs: number): number {
  return Math.max(voiceMs, minLengthMs);
}

/** Where in the music file this scene starts: looped music wraps; null when unlooped music has ended. */
export function musicStartMs(offsetMs: number, musicMs: number, loop: boolean): number | null {
  if (musicMs <= 0) return null;
  if (loop) return offsetMs % musicMs;
  return offsetMs < musicMs ? offsetMs : null;
}

/** Pass one: the mix as a float WAV at `wavPath`, and loudnorm's measurement of it (on stderr). */
export function mixArgs(sources: MixSources, lengthMs: number, loudness: LoudnessTarget, wavPath: string): string[] {
  const total = Math.max(1, Math.round((lengthMs / 1000) * MIX_RATE));
  const format = `aresample=${MIX_RATE},aformat=sample_fmts=fltp:sample_rates=${MIX_RATE}:channel_layouts=stereo`;
  const inputs: string[] = [];
  const chains: string[] = [];
  const labels: string[] = [];
  if (sources.voicePath) {
    chains.push(`[${labels.length}:a]${format},apad=whole_len=${total},atrim=end_sample=${total}[voice]`);
    inputs.push('-i', sources.voicePath);
    labels.push('[voice]');
  }
  const start = sources.music
    ? musicStartMs(sources.plan.offsetMs, sources.music.durationMs, sources.plan.track.loop)
    : null;
  if (sources.music && start !== null) {
    const { track, fadeIn, fadeOut } = sources.plan;
    const steps = [
      format,
      `atrim=end_sample=${total}`,
      'asetpts=N/SR/TB',
      `apad=whole_len=${total}`,
      `volume=${sources.musicGainDb.toFixed(2)}dB`,
    ];
    if (fadeIn && track.fadeInMs > 0) steps.push(`afade=t=in:st=0:d=${sec(Math.min(track.fadeInMs, lengthMs))}`);
    if (fadeOut && track.fadeOutMs > 0) {
      const d = Math.min(track.fadeOutMs, lengthMs);
      steps.push(`afade=t=out:st=${sec(lengthMs - d)}:d=${sec(d)}`);
    }
    const duck = duckingExpression(sources.speech, track.duckDb);
    // Small frames, so the envelope (evaluated once per frame) moves in 10 ms steps.
    if (duck) steps.push(`asetnsamples=n=${MIX_RATE / 100}`, `volume='${duck}':eval=frame`);
    chains.push(`[${labels.length}:a]${steps.join(',')}[music]`);
    inputs.push(...(track.loop ? ['-stream_loop', '-1'] : []), '-ss', sec(start), '-i', sources.music.path);
    labels.push('[music]');
  }
  if (labels.length === 0) {
    chains.push(`anullsrc=r=${MIX_RATE}:cl=stereo,atrim=end_sample=${total}[silence]`);
    labels.push('[silence]');
  }
  // amix scales each input by 1/n; volume=n makes it a plain sum (ffmpeg 4.1 has no normalize=0).
  const sum =
    labels.length === 1
      ? `${labels[0]}anull`
      : `${labels.join('')}amix=inputs=${labels.length}:duration=first:dropout_transition=0,volume=${labels.length}`;
  const limit = Math.pow(10, (loudness.truePeakDb - LIMITER_MARGIN_DB) / 20).toFixed(4);
  chains.push(
    `${sum},volume=${sources.mixGainDb.toFixed(2)}dB,alimiter=limit=${limit}:attack=1:release=50:level=0,asplit=2[split][measure]`,
    `[split]aresample=${MIX_RATE}[mix]`,
    `[measure]${loudnormFilter(loudness)}:print_format=json[measured]`,
  );
  return [
    ...BASE,
    ...inputs,
    '-filter_complex',
    chains.join(';'),
    '-map',
    '[mix]',
    '-c:a',
    'pcm_f32le',
    wavPath,
    '-map',
    '[measured]',
    '-f',
    'null',
    '-',
  ];
}

/**
 * Pass two: the mix brought to the target with the first pass's measurement (one linear gain when
 * the true peak allows it, loudnorm's dynamic mode otherwise), as a 192 kb/s MP3 at 48 kHz.
 */
export function loudnessArgs(
  wavPath: string,
  measured: LoudnessMeasure,
  loudness: LoudnessTarget,
  outPath: string,
): string[] {
  const filters = [];
  if (measured.inputI !== null) {
    const m = (v: number): string => v.toFixed(2);
    filters.push(
      `${loudnormFilter(loudness)}:measured_I=${m(measured.inputI)}:measured_LRA=${m(measured.inputLra)}:measured_TP=${m(measured.inputTp)}:measured_thresh=${m(measured.inputThresh)}:offset=${m(measured.targetOffset)}:linear=true:print_format=json`,
    );
  }
  filters.push(`aresample=${MIX_RATE}`);
  return [
    ...BASE,
    '-i',
    wavPath,
    '-af',
    filters.join(','),
    '-c:a',
    'libmp3lame',
    '-b:a',
    '192k',
    '-ar',
    String(MIX_RATE),
    outPath,
  ];
}

function loudnormFilter(loudness: LoudnessTarget): string {
  return `loudnorm=I=${loudness.lufs}:TP=${loudness.truePeakDb}:LRA=${LOUDNESS_RANGE}`;
}
