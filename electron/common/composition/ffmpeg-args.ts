import { uprightFilter } from './exif-orientation';
import type { Box } from './geometry';
import { planDurationMs, type PlanLayer, type PlanScene, type RenderPlan } from './render-plan';

/**
 * The compositor: a pure function from a render plan to ONE ffmpeg command with ONE filter graph.
 *
 * Per scene: a background colour source of the scene's exact duration; every visual layer scaled to
 * its box (at the render size) BEFORE it is overlaid, overlays bottom-to-top at the box offsets;
 * stills are decoded once and held; moving media is cut to the scene length on input (`-t`), looped
 * first when it is an avatar, otherwise its last frame is held. Audio: the scene's voice (and audio
 * elements) mixed, padded with silence and cut to the scene length; silence when there is none.
 * Scenes are concatenated in order. Video elements are muted: the voice is the sound track.
 */
export type RenderQuality = 'preview' | 'draft';

export interface FfmpegRenderOptions {
  /** Output file; written as MP4 whatever its extension (callers write to "x.mp4.part"). */
  outputPath: string;
  quality: RenderQuality;
  /** Rendered width in pixels; the height follows the output aspect. Default: the plan's width. */
  width?: number;
  fps?: number;
  /** Adds `-progress pipe:1` so progress can be read from stdout. */
  progress?: boolean;
}

export interface FfmpegCommand {
  args: string[];
  filterGraph: string;
  width: number;
  height: number;
  durationMs: number;
  /** Who each ffmpeg input (by index) belongs to, for error messages. */
  inputLabels: string[];
}

/** The longer side of a low-resolution preview. */
export const PREVIEW_LONG_SIDE = 640;

/** Width of a preview at the output's aspect whose longer side is `longSide` (never upscaled). */
export function previewWidth(output: { width: number; height: number }, longSide = PREVIEW_LONG_SIDE): number {
  const k = Math.min(1, longSide / Math.max(output.width, output.height));
  return even(output.width * k);
}
const SAMPLE_RATE = 48000;

/**
 * faststart moves the index to the front (a second pass over the file): worth it for a draft that may
 * be shared or streamed, not for a preview the editor plays from memory.
 */
export const QUALITY: Record<
  RenderQuality,
  { fps: number; preset: string; crf: string; audioBitrate: string; scaleFlags: string; faststart: boolean }
> = {
  preview: {
    fps: 25,
    preset: 'ultrafast',
    crf: '30',
    audioBitrate: '96k',
    scaleFlags: 'fast_bilinear',
    faststart: false,
  },
  draft: { fps: 30, preset: 'veryfast', crf: '21', audioBitrate: '160k', scaleFlags: 'bicubic', faststart: true },
};

export function buildFfmpegArgs(plan: RenderPlan, options: FfmpegRenderOptions): FfmpegCommand {
  const quality = QUALITY[options.quality];
  const graph = buildGraph(plan, {
    width: options.width,
    fps: options.fps ?? quality.fps,
    scaleFlags: quality.scaleFlags,
    video: true,
    audio: true,
  });
  const durationMs = planDurationMs(plan);
  const args = [
    ...GLOBAL_ARGS,
    ...(options.progress ? PROGRESS_ARGS : []),
    ...graph.inputs,
    '-filter_complex',
    graph.filterGraph,
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    ...videoCodecArgs(options.quality),
    ...audioCodecArgs(options.quality),
    ...(quality.faststart ? FASTSTART_ARGS : []),
    '-t',
    seconds(durationMs),
    '-f',
    'mp4',
    options.outputPath,
  ];
  return {
    args,
    filterGraph: graph.filterGraph,
    width: graph.width,
    height: graph.height,
    durationMs,
    inputLabels: graph.inputLabels,
  };
}

export const GLOBAL_ARGS = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error'];
export const PROGRESS_ARGS = ['-progress', 'pipe:1', '-nostats'];
export const FASTSTART_ARGS = ['-movflags', '+faststart'];

export function videoCodecArgs(quality: RenderQuality): string[] {
  return ['-c:v', 'libx264', '-preset', QUALITY[quality].preset, '-crf', QUALITY[quality].crf, '-pix_fmt', 'yuv420p'];
}

export function audioCodecArgs(quality: RenderQuality): string[] {
  return ['-c:a', 'aac', '-b:a', QUALITY[quality].audioBitrate, '-ar', String(SAMPLE_RATE)];
}

export interface PosterOptions {
  /** Time on the project timeline. */
  atMs: number;
  outputPath: string;
  width?: number;
}

/**
 * One JPEG frame at a time on the timeline: only the scene under the playhead is composed (video
 * only), then the frame at the time within that scene is taken.
 */
export function buildPosterArgs(plan: RenderPlan, options: PosterOptions): FfmpegCommand {
  const { sceneIndex, offsetMs } = sceneAt(plan, options.atMs);
  const scene = plan.scenes[sceneIndex];
  const single: RenderPlan = { ...plan, scenes: [scene] };
  const graph = buildGraph(single, {
    width: options.width,
    fps: QUALITY.preview.fps,
    scaleFlags: 'bilinear',
    video: true,
    audio: false,
  });
  // Stay a frame short of the scene's end so there is always a frame to take.
  const at = Math.max(0, Math.min(offsetMs, scene.durationMs - 40));
  const args = [
    ...GLOBAL_ARGS,
    ...graph.inputs,
    '-filter_complex',
    graph.filterGraph,
    '-map',
    '[vout]',
    '-ss',
    seconds(at),
    '-frames:v',
    '1',
    '-c:v',
    'mjpeg',
    '-q:v',
    '4',
    '-f',
    'image2',
    options.outputPath,
  ];
  return {
    args,
    filterGraph: graph.filterGraph,
    width: graph.width,
    height: graph.height,
    durationMs: 0,
    inputLabels: graph.inputLabels,
  };
}

/** Which scene plays at a time on the timeline, and how far into it (clamped to the timeline). */
export function sceneAt(
  plan: { scenes: ReadonlyArray<{ durationMs: number }> },
  atMs: number,
): { sceneIndex: number; offsetMs: number } {
  let start = 0;
  for (let i = 0; i < plan.scenes.length; i += 1) {
    const end = start + plan.scenes[i].durationMs;
    if (atMs < end || i === plan.scenes.length - 1)
      return { sceneIndex: i, offsetMs: Math.max(0, Math.min(atMs - start, plan.scenes[i].durationMs)) };
    start = end;
  }
  return { sceneIndex: 0, offsetMs: 0 };
}

export interface Graph {
  inputs: string[];
  inputLabels: string[];
  filterGraph: string;
  width: number;
  height: number;
}

export interface GraphOptions {
  width?: number;
  fps: number;
  scaleFlags: string;
  /** Which of the picture ([vout]) and the sound ([aout]) the graph makes; inputs only for those. */
  video: boolean;
  audio: boolean;
}

export function buildGraph(plan: RenderPlan, options: GraphOptions): Graph {
  if (plan.scenes.length === 0) throw new Error('Nothing to render: the plan has no scenes');
  const { fps } = options;
  const width = even(options.width ?? plan.width);
  const k = width / plan.width;
  const height = even(plan.height * k);

  const inputs: string[] = [];
  const inputLabels: string[] = [];
  let nextInput = 0;
  const addInput = (label: string, args: string[]): number => {
    inputs.push(...args);
    inputLabels.push(label);
    return nextInput++;
  };

  const chains: string[] = [];
  const concatPads: string[] = [];
  plan.scenes.forEach((scene, s) => {
    const d = seconds(scene.durationMs);
    let pads = '';
    if (options.video) {
      chains.push(`color=c=${ffColour(plan.background)}:s=${width}x${height}:r=${fps}:d=${d}[s${s}bg]`);
      let below = `s${s}bg`;
      scene.layers.forEach((layer, l) => {
        const box = scaledBox(layer.box, k);
        const label = `s${s}l${l}`;
        chains.push(`${layerSource(layer, box, d, fps, options.scaleFlags, addInput)}[${label}]`);
        const above = l === scene.layers.length - 1 ? `s${s}v` : `s${s}o${l}`;
        // A timed element is overlaid only in its span (the scene's own clock starts at 0 with its backdrop).
        const when = layer.shown
          ? `:enable='between(t,${seconds(layer.shown.fromMs)},${seconds(layer.shown.toMs - 1)})'`
          : '';
        chains.push(`[${below}][${label}]overlay=x=${box.x}:y=${box.y}:eof_action=repeat${when}[${above}]`);
        below = above;
      });
      if (scene.layers.length === 0) chains.push(`[s${s}bg]null[s${s}v]`);
      pads += `[s${s}v]`;
    }
    if (options.audio) {
      chains.push(audioChain(scene, s, d, addInput));
      pads += `[s${s}a]`;
    }
    concatPads.push(pads);
  });
  const v = options.video ? 1 : 0;
  const a = options.audio ? 1 : 0;
  chains.push(
    `${concatPads.join('')}concat=n=${plan.scenes.length}:v=${v}:a=${a}${v ? '[vout]' : ''}${a ? '[aout]' : ''}`,
  );
  return { inputs, inputLabels, filterGraph: chains.join(';'), width, height };
}

type AddInput = (label: string, args: string[]) => number;

function layerSource(layer: PlanLayer, box: Box, d: string, fps: number, flags: string, addInput: AddInput): string {
  if (layer.source.kind === 'colour') {
    return `color=c=${ffColour(layer.source.colour)}:s=${box.width}x${box.height}:r=${fps}:d=${d}`;
  }
  const input = layer.source.input;
  const scale = `scale=${box.width}:${box.height}:flags=${flags},setsar=1`;
  if (input.still) {
    // Decoded once and never seeked (ffmpeg 5.1 yields no frame for `-ss` into a JPEG); the overlay's
    // eof_action=repeat holds it for the whole scene. A known orientation is applied here, not by ffmpeg.
    if (input.orientation === undefined) return `[${addInput(layer.label, ['-i', input.path])}:v]${scale}`;
    const index = addInput(layer.label, ['-noautorotate', '-i', input.path]);
    const upright = uprightFilter(input.orientation);
    return `[${index}:v]${upright ? `${upright},` : ''}${scale}`;
  }
  const index = addInput(layer.label, [...(input.loop ? ['-stream_loop', '-1'] : []), '-t', d, '-i', input.path]);
  return `[${index}:v]setpts=PTS-STARTPTS,${scale}`;
}

function audioChain(scene: PlanScene, s: number, d: string, addInput: AddInput): string {
  const out = `[s${s}a]`;
  if (scene.audio.length === 0) return `anullsrc=r=${SAMPLE_RATE}:cl=stereo,atrim=duration=${d}${out}`;
  const norm = `asetpts=PTS-STARTPTS,aresample=${SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`;
  const fit = `apad,atrim=duration=${d}`;
  if (scene.audio.length === 1) {
    const index = addInput(scene.audio[0].label, ['-i', scene.audio[0].path]);
    return `[${index}:a]${norm},${fit}${out}`;
  }
  // Every track padded to the scene's length first, so amix's 1/N scaling is constant and volume=N
  // makes the mix a plain sum (amix's normalize=0 would do it, but ffmpeg before 4.4 lacks it).
  const parts = scene.audio.map((track, t) => {
    const index = addInput(track.label, ['-i', track.path]);
    return `[${index}:a]${norm},${fit}[s${s}a${t}]`;
  });
  const pads = scene.audio.map((_, t) => `[s${s}a${t}]`).join('');
  return `${parts.join(';')};${pads}amix=inputs=${scene.audio.length}:duration=first:dropout_transition=0,volume=${scene.audio.length}${out}`;
}

function scaledBox(box: Box, k: number): Box {
  return {
    x: Math.round(box.x * k),
    y: Math.round(box.y * k),
    width: Math.max(2, even(box.width * k)),
    height: Math.max(2, even(box.height * k)),
  };
}

/** ffmpeg colour syntax: "#1a2b3c" → "0x1a2b3c"; plain names pass through; anything else is white. */
export function ffColour(colour: string): string {
  const hex = /^#([0-9a-fA-F]{6})$/.exec(colour);
  if (hex) return `0x${hex[1].toLowerCase()}`;
  const short = /^#([0-9a-fA-F])([0-9a-fA-F])([0-9a-fA-F])$/.exec(colour);
  if (short) return `0x${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  if (/^[a-zA-Z]{3,20}$/.test(colour)) return colour.toLowerCase();
  return 'white';
}

/** Milliseconds as ffmpeg seconds with millisecond precision ("5.000"). */
export function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}
