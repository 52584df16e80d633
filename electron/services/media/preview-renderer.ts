import { rename } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { FinishedRenders, renderSignature } from './finished-renders';
import { buildSegmentedArgs } from '../../common/composition/segmented-args';
import { abortError, RenderError, runFfmpeg, runSplitFfmpeg } from './ffmpeg-render';
import type { Project } from '../../common/composition/document';
import {
  buildFfmpegArgs,
  buildPosterArgs,
  previewWidth,
  type RenderQuality,
} from '../../common/composition/ffmpeg-args';
import type { RenderProgress } from '../../common/composition/progress';
import { capitalise, planFromProject, type InputRequest, type RenderPlan } from '../../common/composition/render-plan';
import { MediaProbeError } from '../../common/composition/media-info';
import { MediaCache, MediaInputError, shorten } from './media-cache';
import type { MediaProber } from './probe';
import { readOrientation } from './upright';
import type { ExifOrientation } from '../../common/composition/exif-orientation';
import type { ProcessRunner } from './process';
import type { ProxyMaker } from './proxies';
import type { DraftVoice } from './draft-voice';
import { parseRate } from '../../common/api/common';
import { DEFAULT_SPEECH_RATE } from '../../common/speech/draft-voice';
import type { MusicMixer } from './music-mix';
import { withPlanMusic } from './music-scenes';

/**
 * Renders a project locally with ffmpeg: a fast low-resolution preview (inputs from small proxies) or
 * a full-resolution draft. Every input is fetched (once, cached) and inspected first, so a bad link or
 * a file that is not media is reported against its scene and element before ffmpeg starts. Output is
 * written to "<file>.part" and renamed when complete; on failure or cancel the part file is removed.
 */
export interface PreviewRendererDeps {
  runner: ProcessRunner;
  /** Resolves the ffmpeg binary (throws a MediaBinaryError naming every place looked). */
  ffmpeg: () => Promise<string>;
  cache: MediaCache;
  prober: MediaProber;
  proxies: ProxyMaker;
  /** Speaks text the service would speak (none: such text stays silent, and the preview says so). */
  draftVoice?: DraftVoice;
  /** Mixes music under the voices (the same mix submit sends); without it, music is left out of previews. */
  music?: MusicMixer;
  /** How many inputs are fetched and inspected at once. */
  concurrency?: number;
  /** How many ffmpeg parts a render of several scenes may be split into (default: the cores, up to 4). */
  parallelism?: number;
}

export interface RenderRequest {
  quality: RenderQuality;
  outputPath: string;
  /** Rendered width; default: longer side 640 for a preview, the output size for a draft. */
  width?: number;
  signal?: AbortSignal;
  onProgress?: (progress: RenderProgress) => void;
}

export interface RenderResult {
  path: string;
  width: number;
  height: number;
  durationMs: number;
  notes: string[];
  /** The same render (same command, same input files) was already made, and its file was reused. */
  reused?: boolean;
  /** Each text heard in a draft voice, and which: "Scene 1 (…), element speech: espeak-ng, en-us, female, …". */
  draftVoices: string[];
  /** The length is the spoken text's (a talking avatar), not the scene's. */
  followsSpeech: boolean;
}

/** Text the service would speak, once per text, voice and speed. */
export interface SpeechInput {
  key: string;
  text: string;
  voiceId: string;
  /** 0..1 */
  rate: number;
  request: InputRequest;
}

interface Prepared {
  plan: RenderPlan;
  draftVoices: string[];
}

export interface MediaInput {
  url: string;
  /** The first place the media is used (for messages naming the scene and element). */
  request: InputRequest;
  drawnLongSide: number;
}

interface SpokenText {
  path: string;
  description: string;
  durationMs?: number;
}

const speechKey = (text: string, voiceId: string, rate: number): string => JSON.stringify([voiceId, rate, text]);

export class PreviewRenderer {
  private readonly finished = new FinishedRenders();

  constructor(private readonly deps: PreviewRendererDeps) {}

  /**
   * Each media the project uses, once, with the largest size (longer side, render pixels) it is drawn
   * at, which sizes its proxy.
   */
  inputsOf(project: Project, renderWidth = previewWidth(project.output)): MediaInput[] {
    const wanted = new Map<string, MediaInput>();
    const k = renderWidth / project.output.width;
    planFromProject(project, (request) => {
      if (!request.url) return null;
      const side = request.box ? Math.max(request.box.width, request.box.height) * k : 0;
      const known = wanted.get(request.url);
      if (known) known.drawnLongSide = Math.max(known.drawnLongSide, side);
      else wanted.set(request.url, { url: request.url, request, drawnLongSide: side });
      return null;
    });
    return [...wanted.values()];
  }

  /** Each text the project would have the service speak (a talking avatar's, a voiceover not made yet). */
  speechOf(project: Project): SpeechInput[] {
    const wanted = new Map<string, SpeechInput>();
    planFromProject(project, (request) => {
      if (request.url || !request.text || !request.text.text.trim()) return null;
      const rate = request.text.rate ? parseRate(request.text.rate) : DEFAULT_SPEECH_RATE;
      const key = speechKey(request.text.text, request.text.voiceId, rate);
      if (!wanted.has(key))
        wanted.set(key, { key, text: request.text.text, voiceId: request.text.voiceId, rate, request });
      return null;
    });
    return [...wanted.values()];
  }

  /**
   * Fetches, inspects and (for previews) proxies every input, speaks the project's text in the draft
   * voice (unless `speech: false`, for a still frame), then plans the project.
   */
  async prepare(
    project: Project,
    quality: RenderQuality,
    signal?: AbortSignal,
    renderWidth = previewWidth(project.output),
    options: { speech?: boolean } = {},
  ): Promise<RenderPlan> {
    return (await this.prepareWithSpeech(project, quality, signal, renderWidth, options)).plan;
  }

  private async prepareWithSpeech(
    project: Project,
    quality: RenderQuality,
    signal: AbortSignal | undefined,
    renderWidth: number,
    options: { speech?: boolean },
  ): Promise<Prepared> {
    const resolved = new Map<string, ResolvedMedia>();
    const failures: { order: number; error: Error }[] = [];
    const list = this.inputsOf(project, renderWidth);
    await eachLimited(list, this.deps.concurrency ?? 3, async (input, order) => {
      try {
        resolved.set(input.url, await this.resolveInput(input, quality, { signal }));
      } catch (error) {
        failures.push({ order, error: error as Error });
      }
    });
    const speech =
      options.speech === false
        ? { spoken: new Map<string, SpokenText>(), notes: [] }
        : await this.speak(this.speechOf(project), signal);
    if (signal?.aborted) throw abortError();
    if (failures.length > 0) {
      // Report in document order, whichever finished first.
      const first = failures.sort((a, b) => a.order - b.order)[0].error;
      if (failures.length === 1) throw first;
      throw new RenderError(
        `${first.message} (and ${failures.length - 1} more input problem${failures.length > 2 ? 's' : ''})`,
      );
    }
    const draftVoices: string[] = [];
    // The file each scene's speech plays from, which its music (if any) is mixed under.
    const voiceFiles = new Map<number, string>();
    const planned = planFromProject(project, (request) => {
      const found = this.resolveSound(request, resolved, speech.spoken, draftVoices);
      if (found && isSpeechOf(project, request)) voiceFiles.set(request.sceneIndex, found.path);
      return found;
    });
    planned.notes.unshift(...speech.notes);
    const music = this.deps.music;
    if (!music || options.speech === false) return { plan: planned, draftVoices };
    try {
      const plan = await withPlanMusic(
        { mixer: music, localPath: (reference, s) => this.deps.cache.localPath(reference, s) },
        project,
        planned,
        (i) => voiceFiles.get(i) ?? null,
        signal,
      );
      return { plan, draftVoices };
    } catch (error) {
      if (signal?.aborted) throw abortError();
      throw new RenderError((error as Error).message);
    }
  }

  private resolveSound(
    request: InputRequest,
    resolved: Map<string, ResolvedMedia>,
    spokenTexts: Map<string, SpokenText>,
    draftVoices: string[],
  ): ResolvedMedia | null {
    if (request.url) return resolved.get(request.url) ?? null;
    if (!request.text) return null;
    const spoken = spokenTexts.get(
      speechKey(
        request.text.text,
        request.text.voiceId,
        request.text.rate ? parseRate(request.text.rate) : DEFAULT_SPEECH_RATE,
      ),
    );
    if (!spoken) return null;
    draftVoices.push(`${capitalise(request.label)}: ${spoken.description}`);
    return { path: spoken.path, still: false, durationMs: spoken.durationMs };
  }

  /**
   * Speaks each text in the draft voice and measures it. Nothing here fails the preview: without a
   * draft voice, or when it cannot speak a text, that text stays silent and a note says why.
   */
  private async speak(
    inputs: SpeechInput[],
    signal?: AbortSignal,
  ): Promise<{ spoken: Map<string, SpokenText>; notes: string[] }> {
    const spoken = new Map<string, SpokenText>();
    const notes: string[] = [];
    if (inputs.length === 0) return { spoken, notes };
    const voice = this.deps.draftVoice;
    if (!voice?.engineName()) {
      notes.push(
        'No draft voice is installed, so text the service would speak is silent in this preview. Install espeak-ng (for example "apt install espeak-ng") to hear a draft of it.',
      );
      return { spoken, notes };
    }
    for (const input of inputs) {
      if (signal?.aborted) break;
      try {
        const speech = await voice.speak(input.text, input.voiceId, input.rate, signal);
        const info = await this.deps.prober.probe(speech.path, signal);
        spoken.set(input.key, {
          path: speech.path,
          description: speech.description,
          durationMs: info.durationMs ?? undefined,
        });
      } catch (error) {
        if (signal?.aborted) break;
        notes.push(
          `${capitalise(input.request.label)}: the draft voice could not speak it (${(error as Error).message}); the preview is silent there.`,
        );
      }
    }
    return { spoken, notes };
  }

  async render(project: Project, request: RenderRequest): Promise<RenderResult> {
    const width =
      request.width ?? (request.quality === 'preview' ? previewWidth(project.output) : project.output.width);
    const { plan, draftVoices } = await this.prepareWithSpeech(project, request.quality, request.signal, width, {});
    const part = `${request.outputPath}.part`;
    const command = buildFfmpegArgs(plan, { outputPath: part, quality: request.quality, width, progress: true });
    const followsSpeech = plan.scenes.some((scene) => scene.followsAudio === true);
    const result = {
      path: request.outputPath,
      width: command.width,
      height: command.height,
      durationMs: command.durationMs,
      notes: plan.notes,
      draftVoices,
      followsSpeech,
    };
    const signature = await renderSignature(command, part);
    if (await this.finished.reuse(signature, request.outputPath)) {
      request.onProgress?.({ fraction: 1, outTimeMs: command.durationMs, frame: null, speed: null, done: true });
      return { ...result, reused: true };
    }
    const groups = this.deps.parallelism ?? Math.min(4, availableParallelism());
    const split = buildSegmentedArgs(plan, {
      outputPath: part,
      quality: request.quality,
      width,
      progress: true,
      groups,
    });
    if (split) await runSplitFfmpeg(this.deps, split, command, part, request.signal, request.onProgress);
    else await runFfmpeg(this.deps, command, part, request.signal, request.onProgress);
    await rename(part, request.outputPath);
    this.finished.remember(signature, request.outputPath);
    return result;
  }

  /** One JPEG frame at `atMs` on the timeline. */
  async poster(
    project: Project,
    atMs: number,
    options: { outputPath: string; width?: number; signal?: AbortSignal },
  ): Promise<string> {
    const width = options.width ?? previewWidth(project.output);
    const plan = await this.prepare(project, 'preview', options.signal, width, { speech: false });
    const part = `${options.outputPath}.part`;
    const command = buildPosterArgs(plan, { atMs, outputPath: part, width });
    await runFfmpeg(this.deps, command, part, options.signal);
    await rename(part, options.outputPath);
    return options.outputPath;
  }

  /**
   * The local file an input is rendered from: fetched once into the cache, inspected, and for previews
   * a proxy when the source is large. `lowPriority`: done ahead of need, yielding the CPU.
   */
  async resolveInput(
    input: MediaInput,
    quality: RenderQuality,
    options: { signal?: AbortSignal; lowPriority?: boolean } = {},
  ): Promise<ResolvedMedia> {
    const { request, drawnLongSide } = input;
    const { signal, lowPriority } = options;
    const url = input.url;
    const where = capitalise(request.label);
    try {
      const path = await this.deps.cache.localPath(url, signal);
      const info = await this.deps.prober.probe(path, signal).catch((error: Error) => {
        if (error instanceof MediaProbeError)
          throw new MediaInputError(`${shorten(url)} is not a media file ffmpeg can read`);
        throw error;
      });
      const wantsSound = request.role === 'voice' || request.type === 'audio';
      if (wantsSound && !info.hasAudio) throw new MediaInputError(`${shorten(url)} has no sound`);
      if (!wantsSound && !info.hasVideo)
        throw new MediaInputError(`${shorten(url)} has no picture (is it an audio file?)`);
      const still = info.kind === 'image';
      // A picture is drawn the way up its EXIF tag says, by the compositor whatever the ffmpeg.
      if (still && !wantsSound) return { path, still, orientation: await readOrientation(path) };
      if (quality === 'preview' && !wantsSound)
        return { path: await this.deps.proxies.proxyFor(path, info, { drawnLongSide, signal, lowPriority }), still };
      // A sound's length sets a talking avatar's.
      return wantsSound && info.durationMs ? { path, still, durationMs: info.durationMs } : { path, still };
    } catch (error) {
      if (signal?.aborted) throw abortError();
      throw new RenderError(`${where}: ${(error as Error).message}`);
    }
  }
}

/** Whether a request is a scene's speech: a talking avatar's first audio element, else the scene's voice. */
function isSpeechOf(project: Project, request: InputRequest): boolean {
  const firstAudio =
    project.kind === 'talking-avatar'
      ? project.scenes[request.sceneIndex]?.elements.find((e) => e.type === 'audio')
      : undefined;
  return firstAudio ? request.elementId === firstAudio.id : request.type === 'voice';
}

/** A media input ready for the compositor: the file, and how to draw it. */
export interface ResolvedMedia {
  path: string;
  still: boolean;
  durationMs?: number;
  orientation?: ExifOrientation;
}

async function eachLimited<T>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  });
  await Promise.all(lanes);
}
