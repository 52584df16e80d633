import type { OutputSize, Project, Scene } from '../composition/document';
import { CompositionError, findScene, round2, updateScene } from '../composition/project-ops';
import { DEFAULT_SPEECH_RATE } from '../speech/draft-voice';
import { parseRate } from '../api/common';
import type { TextStyle } from '../composition/text-style';
import type { Cue } from './caption-timing';
import {
  CAPTION_REFERENCE_WIDTH,
  DEFAULT_CAPTION_SETTINGS,
  MAX_CUE_CHARS,
  type CaptionCue,
  type CaptionSettings,
} from './caption-track';

/**
 * Caption operations, pure like the other document operations: (project, ...) → new project, one
 * undo step each in the editor. Cue times are inside their scene; a cue is kept inside the scene and
 * off its neighbours, so the track never holds two captions at once.
 */

/** Shortest cue an edit leaves (a tenth of a second). */
export const MIN_CUE_MS = 100;

export function captionSettingsOf(project: Pick<Project, 'captions'>): CaptionSettings {
  return project.captions ?? DEFAULT_CAPTION_SETTINGS;
}

export function setCaptionSettings(project: Project, patch: Partial<CaptionSettings>): Project {
  return { ...project, captions: { ...captionSettingsOf(project), ...patch } };
}

/** Replaces a scene's cues (made from its voice); they are sorted and clipped to the scene. */
export function setSceneCaptions(project: Project, sceneId: string, cues: readonly Cue[]): Project {
  return updateScene(project, sceneId, (scene) => {
    const fitted = [...cues]
      .sort((a, b) => a.startMs - b.startMs)
      .map((c) => ({
        text: c.text.slice(0, MAX_CUE_CHARS),
        startMs: Math.max(0, Math.round(c.startMs)),
        endMs: Math.min(scene.durationMs, Math.round(c.endMs)),
      }))
      .filter((c) => c.endMs - c.startMs >= 1);
    return { ...scene, captions: fitted };
  });
}

/** Changes one cue's words or times; times are kept inside the scene and between its neighbours. */
export function editCue(project: Project, sceneId: string, index: number, patch: Partial<CaptionCue>): Project {
  const { scene } = findScene(project, sceneId);
  const cues = scene.captions ?? [];
  const cue = cues[index];
  if (!cue) throw new CompositionError(`Scene "${sceneId}" has no caption ${index + 1}`);
  if (patch.text !== undefined && patch.text.length > MAX_CUE_CHARS)
    throw new CompositionError(
      `A caption holds at most ${MAX_CUE_CHARS} characters (this one has ${patch.text.length}).`,
    );
  const floor = index > 0 ? cues[index - 1].endMs : 0;
  const ceiling = index < cues.length - 1 ? cues[index + 1].startMs : scene.durationMs;
  let startMs = Math.round(patch.startMs ?? cue.startMs);
  let endMs = Math.round(patch.endMs ?? cue.endMs);
  if (
    patch.startMs !== undefined &&
    patch.endMs !== undefined &&
    patch.startMs !== cue.startMs &&
    patch.endMs - patch.startMs === cue.endMs - cue.startMs
  ) {
    // A move keeps the cue's length; it stops at a neighbour instead of shrinking.
    const length = endMs - startMs;
    startMs = Math.min(Math.max(startMs, floor), ceiling - length);
    endMs = startMs + length;
  }
  startMs = Math.max(floor, Math.min(startMs, endMs - MIN_CUE_MS));
  endMs = Math.min(ceiling, Math.max(endMs, startMs + MIN_CUE_MS));
  if (endMs - startMs < MIN_CUE_MS)
    throw new CompositionError('There is no room for that caption between its neighbours.');
  const next = { text: patch.text ?? cue.text, startMs, endMs };
  if (next.text === cue.text && next.startMs === cue.startMs && next.endMs === cue.endMs) return project;
  return updateScene(project, sceneId, (s) => ({ ...s, captions: cues.map((c, i) => (i === index ? next : c)) }));
}

export function removeCue(project: Project, sceneId: string, index: number): Project {
  return updateScene(project, sceneId, (s) => ({ ...s, captions: (s.captions ?? []).filter((_, i) => i !== index) }));
}

/** Adds an empty-worded cue at `atMs` in the scene's first free stretch there; null when there is no room. */
export function addCue(
  project: Project,
  sceneId: string,
  atMs: number,
  text = 'Caption',
): { project: Project; index: number } | null {
  const { scene } = findScene(project, sceneId);
  const cues = scene.captions ?? [];
  const index = cues.findIndex((c) => c.startMs > atMs);
  const at = index < 0 ? cues.length : index;
  const floor = at > 0 ? cues[at - 1].endMs : 0;
  const ceiling = at < cues.length ? cues[at].startMs : scene.durationMs;
  const startMs = Math.max(floor, Math.round(atMs));
  const endMs = Math.min(ceiling, startMs + 2000);
  if (endMs - startMs < MIN_CUE_MS) return null;
  const captions = [...cues.slice(0, at), { text, startMs, endMs }, ...cues.slice(at)];
  return { project: updateScene(project, sceneId, (s) => ({ ...s, captions })), index: at };
}

/** Every cue with words, on the whole project's clock (each scene starts where the one before ends). */
export function projectCues(project: Pick<Project, 'scenes'>, durations?: readonly number[]): Cue[] {
  const out: Cue[] = [];
  let offset = 0;
  project.scenes.forEach((scene, i) => {
    const length = durations?.[i] ?? scene.durationMs;
    for (const cue of scene.captions ?? []) {
      if (cue.text.trim() === '' || cue.startMs >= length) continue;
      out.push({ text: cue.text.trim(), startMs: offset + cue.startMs, endMs: offset + Math.min(cue.endMs, length) });
    }
    offset += length;
  });
  return out;
}

/** The cue showing at `atMs` on the project's clock, or null. */
export function cueAt(cues: readonly Cue[], atMs: number): Cue | null {
  return cues.find((c) => atMs >= c.startMs && atMs < c.endMs) ?? null;
}

/** What a scene's captions are made from: the words its voice speaks and who speaks them. */
export interface SceneScript {
  text: string;
  voiceId: string;
  /** 0..1 */
  rate: number;
  /** The generated voiceover or the recording, when there is one; otherwise the draft voice speaks the text. */
  audioUrl: string | null;
}

export function sceneScript(scene: Scene): SceneScript | null {
  const voice = scene.voice;
  if (voice?.kind === 'tts' && voice.text.trim() !== '') {
    return { text: voice.text, voiceId: voice.voiceId, rate: rateOf(voice.rate), audioUrl: voice.audioUrl ?? null };
  }
  // A talking avatar's speech: an audio element given as text.
  const spoken = scene.elements.find(
    (e) => e.type === 'audio' && e.inputText && e.inputText.trim() !== '' && e.voiceId,
  );
  if (spoken?.inputText && spoken.voiceId)
    return { text: spoken.inputText, voiceId: spoken.voiceId, rate: DEFAULT_SPEECH_RATE, audioUrl: null };
  return null;
}

/** Why a scene's captions cannot be made from its voice, in words for the user; null when they can. */
export function sceneScriptProblem(scene: Scene): string | null {
  if (sceneScript(scene)) return null;
  if (scene.voice?.kind === 'url')
    return 'This scene speaks a recording, which has no script to caption: add captions by hand (+ Caption) and type what is said.';
  return 'This scene has no voiceover text to caption: give it a voiceover, or add captions by hand.';
}

/** A cue's look at the project's frame size: the caption style with its words, scaled from the 1920-wide reference. */
export function cueStyle(settings: CaptionSettings, text: string, output: OutputSize): TextStyle {
  const k = output.width / CAPTION_REFERENCE_WIDTH;
  const s = settings.style;
  const padding = s.box ? s.box.padding * k : 0;
  return {
    ...s,
    content: text,
    fontSize: Math.max(4, round2(s.fontSize * k)),
    wrapWidth: Math.max(8, round2(settings.widthShare * output.width - padding * 2)),
    outline: s.outline && { ...s.outline, width: Math.max(0.5, round2(s.outline.width * k)) },
    box: s.box && { ...s.box, padding: round2(padding), radius: round2(s.box.radius * k) },
    shadow: s.shadow && {
      ...s.shadow,
      blur: round2(s.shadow.blur * k),
      offsetX: round2(s.shadow.offsetX * k),
      offsetY: round2(s.shadow.offsetY * k),
    },
  };
}

/**
 * Where a cue's picture goes in the frame (top-left corner, output pixels): centred across, at the
 * chosen edge's margin. The picture is the wrap width wide, so centred text stays centred.
 */
export function cuePlace(
  size: { width: number; height: number },
  output: OutputSize,
  settings: Pick<CaptionSettings, 'position' | 'margin'>,
): { x: number; y: number } {
  const x = Math.round((output.width - size.width) / 2);
  const margin = settings.margin * output.height;
  const y =
    settings.position === 'top'
      ? margin
      : settings.position === 'middle'
        ? (output.height - size.height) / 2
        : output.height - margin - size.height;
  return { x, y: Math.round(Math.max(0, Math.min(output.height - size.height, y))) };
}

function rateOf(rate: string): number {
  const value = parseRate(rate);
  return Number.isFinite(value) ? value : DEFAULT_SPEECH_RATE;
}
