import type { ElementType, Project, Scene, SceneElement, Voice } from './document';
import type { ExifOrientation } from './exif-orientation';
import { isStillByExtension } from '../media-types';
import { elementBox, isVisual, stackingOrder, type Box } from './geometry';
import { isTimed, shownSpan } from './timing-span';
import {
  followsVoice,
  HOW_TO_FIT_VOICE,
  sceneLengthFor,
  VOICE_OVERRUN_TOLERANCE_MS,
  voiceRunsText,
} from './voice-follow';

/**
 * A render plan: what the compositor draws, in output pixels, with every media already resolved to
 * something ffmpeg can open. Built from a project (planFromProject) or from a request body
 * (body-plans.ts), turned into ffmpeg arguments by buildFfmpegArgs.
 */
export interface PlanInput {
  /** A local path (or a URL ffmpeg can read). */
  path: string;
  /** A single picture (drawn once, held for the scene) rather than moving media. */
  still: boolean;
  /** Moving media restarts when it ends (avatars idle in a loop); otherwise its last frame is held. */
  loop: boolean;
  /**
   * A still's EXIF orientation, when the resolver read it: the picture is then turned upright by the
   * compositor itself, whatever the ffmpeg (4.1 ignores the tag, 5.1 applies it). Unset: as ffmpeg reads it.
   */
  orientation?: ExifOrientation;
}

export type LayerSource = { kind: 'media'; input: PlanInput } | { kind: 'colour'; colour: string };

export interface PlanLayer {
  source: LayerSource;
  box: Box;
  /** Who this layer is, for error messages: "scene 2 (intro), element el-3 (Logo)". */
  label: string;
  /** Shown only in this span of its scene (ms from the scene's start): an element timed on its own. */
  shown?: { fromMs: number; toMs: number };
}

export interface PlanAudio {
  path: string;
  label: string;
  /** Its length, when the resolver measured it (a talking avatar lasts as long as its speech). */
  durationMs?: number;
}

export interface PlanScene {
  durationMs: number;
  /** The length is the scene's audio's (a talking avatar's speech), not the scene's own. */
  followsAudio?: boolean;
  /** Bottom first. */
  layers: PlanLayer[];
  /** Mixed together; none means silence. */
  audio: PlanAudio[];
}

export interface RenderPlan {
  width: number;
  height: number;
  /** "#rrggbb" or a plain colour name ffmpeg knows ("white"). */
  background: string;
  scenes: PlanScene[];
  /** Things the preview cannot show (a voiceover not generated yet, ...), for the user. */
  notes: string[];
}

/** What the compositor asks the caller to resolve into a file ffmpeg can open. */
export interface InputRequest {
  role: 'element' | 'voice';
  type: ElementType | 'voice';
  /** The document's URL; null when the media is only known by id or text. */
  url: string | null;
  avatarId?: string;
  /** Speech to synthesise (a TTS voice with no audio yet, or a talking-avatar text audio element). */
  text?: { text: string; voiceId: string; rate?: string };
  sceneIndex: number;
  sceneId: string;
  elementId?: string;
  /** The human label used in messages. */
  label: string;
  /** For a visual element: its box in output pixels (lets a caller size a preview proxy to it). */
  box?: Box;
}

export type ResolvedInput =
  string | { path: string; still?: boolean; durationMs?: number; orientation?: ExifOrientation } | null;
/**
 * Maps a media reference to a local path (or readable URL). Synchronous on purpose: callers fetch
 * and cache everything first, then plan. Return null to leave the media out (silent / not drawn):
 * the plan records a note.
 */
export type ResolveInput = (request: InputRequest) => ResolvedInput;

/** Guess from the URL whether a media is a still picture (used when the resolver does not say). */
export function looksStill(url: string): boolean {
  return isStillByExtension(url);
}

/** "scene 2 (intro)" → "Scene 2 (intro)", for labels that start a message. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function sceneLabel(index: number, id: string, name?: string): string {
  return `scene ${index + 1} (${name ?? id})`;
}

export function elementLabel(sceneText: string, id: string, name?: string): string {
  return `${sceneText}, element ${id}${name ? ` (${name})` : ''}`;
}

/** Shared by every adapter: a visual element → a plan layer (or a note when it cannot be drawn). */
export function planLayer(
  element: Pick<SceneElement, 'type' | 'url' | 'avatarId' | 'x' | 'y' | 'width' | 'height'>,
  request: Omit<InputRequest, 'role' | 'type' | 'url' | 'avatarId'>,
  resolve: ResolveInput,
  notes: string[],
): PlanLayer | null {
  const box = elementBox(element);
  if (box.width <= 0 || box.height <= 0) return null;
  if (element.type === 'image' && /^#[0-9a-fA-F]{6}$/.test(element.url)) {
    return { source: { kind: 'colour', colour: element.url.toLowerCase() }, box, label: request.label };
  }
  const resolved = resolve({
    ...request,
    role: 'element',
    type: element.type,
    url: element.url || null,
    avatarId: element.avatarId,
    box,
  });
  if (resolved === null) {
    notes.push(`${request.label}: no media to show`);
    return null;
  }
  const path = typeof resolved === 'string' ? resolved : resolved.path;
  const still =
    typeof resolved === 'string' || resolved.still === undefined
      ? element.type === 'image' || looksStill(element.url || path)
      : resolved.still;
  const orientation = typeof resolved !== 'string' && still ? resolved.orientation : undefined;
  const input: PlanInput = {
    path,
    still,
    loop: element.type === 'avatar' && !still,
    ...(orientation ? { orientation } : {}),
  };
  return { source: { kind: 'media', input }, box, label: request.label };
}

/** Shared by every adapter: an audio reference → plan audio (or a note when there is none). */
export function planAudio(
  request: Omit<InputRequest, 'role'> & { role?: InputRequest['role'] },
  resolve: ResolveInput,
  notes: string[],
): PlanAudio | null {
  const resolved = resolve({ role: 'voice', ...request });
  if (resolved === null) {
    notes.push(`${request.label}: no audio yet, the preview is silent there`);
    return null;
  }
  if (typeof resolved === 'string') return { path: resolved, label: request.label };
  return {
    path: resolved.path,
    label: request.label,
    ...(resolved.durationMs !== undefined ? { durationMs: resolved.durationMs } : {}),
  };
}

/** A talking avatar's body takes no speed (the service speaks at its own), so its text has none. */
function voiceRequest(voice: Voice, talking: boolean): Pick<InputRequest, 'url' | 'text'> {
  if (voice.kind === 'url') return { url: voice.url };
  return {
    url: voice.audioUrl ?? null,
    text: { text: voice.text, voiceId: voice.voiceId, ...(talking ? {} : { rate: voice.rate }) },
  };
}

/** The plan of a project: each scene at its duration, its elements in layer order, its voice. */
export function planFromProject(project: Project, resolve: ResolveInput): RenderPlan {
  const notes: string[] = [];
  const scenes = project.scenes.map((scene, sceneIndex): PlanScene => {
    const sceneText = sceneLabel(sceneIndex, scene.id, scene.name);
    const base = { sceneIndex, sceneId: scene.id };
    const layers: PlanLayer[] = [];
    const audio: PlanAudio[] = [];
    for (const element of stackingOrder(scene.elements)) {
      const label = elementLabel(sceneText, element.id, element.name);
      if (isVisual(element)) {
        const layer = planLayer(element, { ...base, elementId: element.id, label }, resolve, notes);
        if (layer && isTimed(element)) {
          const { from, to } = shownSpan(element, scene);
          layers.push({ ...layer, shown: { fromMs: from, toMs: to } });
        } else if (layer) layers.push(layer);
        continue;
      }
      const text =
        element.inputText && element.voiceId ? { text: element.inputText, voiceId: element.voiceId } : undefined;
      // The service's rule: when an audio element has both, the URL wins.
      const track = planAudio(
        { role: 'element', type: 'audio', url: element.url || null, text, ...base, elementId: element.id, label },
        resolve,
        notes,
      );
      if (track) audio.push(track);
    }
    // A talking avatar sends its scene voice only when it has no audio element (as its serialiser does).
    const talking = project.kind === 'talking-avatar';
    let voice: PlanAudio | null = null;
    if (scene.voice && !(talking && scene.elements.some((e) => e.type === 'audio'))) {
      voice = planAudio(
        { type: 'voice', ...voiceRequest(scene.voice, talking), ...base, label: `${sceneText}, voice` },
        resolve,
        notes,
      );
      if (voice) audio.unshift(voice);
    }
    if (!talking) return { ...voicedLength(project, scene, capitalise(sceneText), voice, notes), layers, audio };
    return { ...talkingLength(scene.durationMs, audio, notes), layers, audio };
  });
  return { width: project.output.width, height: project.output.height, background: project.background, scenes, notes };
}

/**
 * A talking avatar's result lasts as long as its speech (the body carries no duration), so its plan
 * does too: the longest audio whose length the resolver measured. Without one, the scene's own length
 * stands, and a note says the result's will differ.
 */
function talkingLength(
  sceneMs: number,
  audio: PlanAudio[],
  notes: string[],
): Pick<PlanScene, 'durationMs' | 'followsAudio'> {
  const longest = Math.max(0, ...audio.map((track) => track.durationMs ?? 0));
  if (longest > 0) return { durationMs: Math.max(MIN_PLAN_MS, Math.round(longest)), followsAudio: true };
  notes.push(
    `The talking avatar lasts as long as its speech; without it this preview keeps the scene's ${(sceneMs / 1000).toFixed(1)} s.`,
  );
  return { durationMs: sceneMs };
}

/**
 * An avatar video's scene as the made video will be: as long as its voice when it follows it, else its
 * own length, with a note when the voice runs past it (the service cuts the rest off).
 */
function voicedLength(
  project: Project,
  scene: Scene,
  where: string,
  voice: PlanAudio | null,
  notes: string[],
): Pick<PlanScene, 'durationMs' | 'followsAudio'> {
  const voiceMs = voice?.durationMs;
  if (voiceMs === undefined) return { durationMs: scene.durationMs };
  if (followsVoice(project, scene)) return { durationMs: sceneLengthFor(voiceMs), followsAudio: true };
  if (voiceMs > scene.durationMs + VOICE_OVERRUN_TOLERANCE_MS)
    notes.push(
      `${where}: ${voiceRunsText(voiceMs, scene.durationMs, false)}, so the video cuts the voice off there (${HOW_TO_FIT_VOICE}).`,
    );
  return { durationMs: scene.durationMs };
}

const MIN_PLAN_MS = 100;

export function planDurationMs(plan: RenderPlan): number {
  return plan.scenes.reduce((sum, scene) => sum + scene.durationMs, 0);
}
