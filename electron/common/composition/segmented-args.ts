import {
  FASTSTART_ARGS,
  GLOBAL_ARGS,
  PROGRESS_ARGS,
  QUALITY,
  audioCodecArgs,
  buildGraph,
  seconds,
  videoCodecArgs,
  type FfmpegCommand,
  type FfmpegRenderOptions,
} from './ffmpeg-args';
import { planDurationMs, type RenderPlan } from './render-plan';

/**
 * The same render as buildFfmpegArgs's one command, split so that it can use more than one core: one
 * ffmpeg encodes the picture of each run of consecutive scenes, one the whole sound track, all at once,
 * and a last one joins them without encoding again (ffmpeg's concat demuxer for the pictures, the sound
 * as it is). Each part is the single command's graph for its scenes, so the result looks the same;
 * the sound is one encode, so no seam can be heard where parts meet.
 */
export interface SegmentedRender {
  /** One picture-only command per run of scenes, writing `parts[i]`. */
  videos: FfmpegCommand[];
  parts: string[];
  /** The sound track of every scene, writing `audioPath`. */
  audio: FfmpegCommand;
  audioPath: string;
  /** The concat demuxer's list of the parts, to be written at `listPath` before `join` runs. */
  listPath: string;
  listText: string;
  /** Joins the parts and the sound into the output, copying the streams. */
  join: FfmpegCommand;
  /** Every file the parts leave behind, to remove once the output is made (or the render fails). */
  temporary: string[];
}

/**
 * Consecutive runs of scene indexes, at most `groups` of them, with the longest run as short as it
 * can be (the parts run at once, so the longest sets the time). Binary search on that length over
 * whole milliseconds; a greedy fill decides whether a length is enough.
 */
export function splitScenes(durationsMs: number[], groups: number): number[][] {
  const fill = (limit: number): number[][] => {
    const runs: number[][] = [];
    let sum = Number.POSITIVE_INFINITY;
    durationsMs.forEach((d, i) => {
      if (sum + d > limit) {
        runs.push([]);
        sum = 0;
      }
      runs[runs.length - 1].push(i);
      sum += d;
    });
    return runs;
  };
  let low = Math.max(0, ...durationsMs);
  let high = durationsMs.reduce((a, b) => a + b, 0);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (fill(middle).length <= groups) high = middle;
    else low = middle + 1;
  }
  return fill(low);
}

/**
 * The split render of `plan` into `groups` parts at most, or null when it would have one part (a single
 * scene, or a single core): the single command is then as fast.
 */
export function buildSegmentedArgs(
  plan: RenderPlan,
  options: FfmpegRenderOptions & { groups: number },
): SegmentedRender | null {
  if (options.groups < 2 || plan.scenes.length < 2) return null;
  const runs = splitScenes(
    plan.scenes.map((scene) => scene.durationMs),
    options.groups,
  );
  if (runs.length < 2) return null;
  const quality = QUALITY[options.quality];
  const fps = options.fps ?? quality.fps;
  const progress = options.progress ? PROGRESS_ARGS : [];
  const out = options.outputPath;
  const parts = runs.map((_, i) => `${out}.picture-${i}.mp4`);
  const videos = runs.map((run, i): FfmpegCommand => {
    const part: RenderPlan = { ...plan, scenes: run.map((s) => plan.scenes[s]) };
    const graph = buildGraph(part, {
      width: options.width,
      fps,
      scaleFlags: quality.scaleFlags,
      video: true,
      audio: false,
    });
    const durationMs = planDurationMs(part);
    const args = [
      ...GLOBAL_ARGS,
      ...progress,
      ...graph.inputs,
      '-filter_complex',
      graph.filterGraph,
      '-map',
      '[vout]',
      ...videoCodecArgs(options.quality),
      '-t',
      seconds(durationMs),
      '-f',
      'mp4',
      parts[i],
    ];
    return {
      args,
      filterGraph: graph.filterGraph,
      width: graph.width,
      height: graph.height,
      durationMs,
      inputLabels: graph.inputLabels,
    };
  });
  const durationMs = planDurationMs(plan);
  const audioPath = `${out}.sound.m4a`;
  const sound = buildGraph(plan, {
    width: options.width,
    fps,
    scaleFlags: quality.scaleFlags,
    video: false,
    audio: true,
  });
  const audio: FfmpegCommand = {
    args: [
      ...GLOBAL_ARGS,
      ...sound.inputs,
      '-filter_complex',
      sound.filterGraph,
      '-map',
      '[aout]',
      ...audioCodecArgs(options.quality),
      '-t',
      seconds(durationMs),
      '-f',
      'mp4',
      audioPath,
    ],
    filterGraph: sound.filterGraph,
    width: sound.width,
    height: sound.height,
    durationMs,
    inputLabels: sound.inputLabels,
  };
  const listPath = `${out}.parts.txt`;
  const listText = parts.map((path) => `file '${path.replace(/'/g, "'\\''")}'\n`).join('');
  const join: FfmpegCommand = {
    args: [
      ...GLOBAL_ARGS,
      ...['-f', 'concat', '-safe', '0', '-i', listPath, '-i', audioPath],
      ...['-map', '0:v', '-map', '1:a', '-c', 'copy'],
      ...(quality.faststart ? FASTSTART_ARGS : []),
      ...['-t', seconds(durationMs), '-f', 'mp4', out],
    ],
    filterGraph: '',
    width: videos[0].width,
    height: videos[0].height,
    durationMs,
    inputLabels: ['the joined picture', 'the sound track'],
  };
  return { videos, parts, audio, audioPath, listPath, listText, join, temporary: [...parts, audioPath, listPath] };
}
