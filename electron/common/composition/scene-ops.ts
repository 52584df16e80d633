import { DEFAULT_SCENE_MS, MAX_SCENE_MS, MIN_SCENE_MS, Voice, type Project, type Scene } from './document';
import { CompositionError, findScene, freshIds, nextId, updateScene } from './project-ops';
import { voiceoverHash } from '../jobs/purpose';

/** Scene operations: pure, each returns a new document (or its input when nothing changed). */

export interface AddSceneOptions {
  /** Insert after this scene; at the end when absent. */
  afterSceneId?: string;
  durationMs?: number;
  /** Id for the new scene; `nextId(project, 'scene')` when absent. */
  id?: string;
}

export function addScene(project: Project, options: AddSceneOptions = {}): Project {
  const id = options.id ?? nextId(project, 'scene');
  if (project.scenes.some((s) => s.id === id)) throw new CompositionError(`A scene with id "${id}" already exists`);
  const scene: Scene = {
    id,
    durationMs: clampDuration(options.durationMs ?? DEFAULT_SCENE_MS),
    voice: null,
    elements: [],
  };
  const at =
    options.afterSceneId === undefined ? project.scenes.length : findScene(project, options.afterSceneId).index + 1;
  const scenes = project.scenes.slice();
  scenes.splice(at, 0, scene);
  return { ...project, scenes };
}

/** Removes a scene. The last remaining scene cannot be removed: the input is returned unchanged. */
export function removeScene(project: Project, sceneId: string): Project {
  const { index } = findScene(project, sceneId);
  if (project.scenes.length === 1) return project;
  return { ...project, scenes: project.scenes.filter((_, i) => i !== index) };
}

/** Copies a scene (fresh ids for it and its elements) right after the original. */
export function duplicateScene(project: Project, sceneId: string, newId?: string): Project {
  const { scene, index } = findScene(project, sceneId);
  const id = newId ?? nextId(project, 'scene');
  if (project.scenes.some((s) => s.id === id)) throw new CompositionError(`A scene with id "${id}" already exists`);
  const ids = freshIds(project, 'el', scene.elements.length);
  const copy: Scene = {
    ...scene,
    id,
    voice: scene.voice ? { ...scene.voice } : null,
    elements: scene.elements.map((element, i) => ({ ...element, id: ids[i] })),
  };
  const scenes = project.scenes.slice();
  scenes.splice(index + 1, 0, copy);
  return { ...project, scenes };
}

/** Moves a scene to a new position (0-based, clamped to the list). */
export function moveScene(project: Project, sceneId: string, toIndex: number): Project {
  const { scene, index } = findScene(project, sceneId);
  const target = Math.max(0, Math.min(project.scenes.length - 1, Math.trunc(toIndex)));
  if (target === index) return project;
  const scenes = project.scenes.filter((_, i) => i !== index);
  scenes.splice(target, 0, scene);
  return { ...project, scenes };
}

/** Sets a scene's duration, rounded to whole milliseconds and clamped to 100 ms … 10 min. */
export function setSceneDuration(project: Project, sceneId: string, durationMs: number): Project {
  const value = clampDuration(durationMs);
  return updateScene(project, sceneId, (scene) =>
    scene.durationMs === value ? scene : { ...scene, durationMs: value },
  );
}

export function setSceneVoice(project: Project, sceneId: string, voice: Voice | null): Project {
  const checked = voice === null ? null : Voice.parse(voice);
  return updateScene(project, sceneId, (scene) => ({ ...scene, voice: checked }));
}

/** The scene's own choice: its length follows its voice (true) or stays as set (false), whatever the project says. */
export function setSceneFollowVoice(project: Project, sceneId: string, follow: boolean): Project {
  return updateScene(project, sceneId, (scene) =>
    scene.followVoice === follow ? scene : { ...scene, followVoice: follow },
  );
}

export function setSceneName(project: Project, sceneId: string, name: string): Project {
  return updateScene(project, sceneId, (scene) => (scene.name === name ? scene : { ...scene, name }));
}

function clampDuration(ms: number): number {
  if (!Number.isFinite(ms)) throw new CompositionError(`Scene duration must be a number of milliseconds (got ${ms})`);
  return Math.max(MIN_SCENE_MS, Math.min(MAX_SCENE_MS, Math.round(ms)));
}

/**
 * Makes a scene speak a shorter copy of its voice ("Trim voice"): a link voice takes the copy's link,
 * a voiceover keeps its script, voice and rate and takes the copy as its audio, so editing the script
 * later still makes a fresh one. Returns null when the scene has no voice.
 */
export function replaceVoiceAudio(project: Project, sceneId: string, audioUrl: string): Project | null {
  const voice = project.scenes.find((s) => s.id === sceneId)?.voice;
  if (!voice) return null;
  return setSceneVoice(
    project,
    sceneId,
    voice.kind === 'url' ? { kind: 'url', url: audioUrl } : { ...voice, audioUrl },
  );
}

/**
 * Puts a finished voiceover's audio into its scene, only when the scene still asks for exactly the
 * script, voice and rate the audio was made from (never over a newer script). Returns null when it does
 * not apply, the project unchanged when the audio is already there.
 */
export function applyVoiceoverAudio(
  project: Project,
  sceneId: string,
  scriptHash: string,
  audioUrl: string,
): Project | null {
  const voice = project.scenes.find((s) => s.id === sceneId)?.voice;
  if (!voice || voice.kind !== 'tts' || voiceoverHash(voice) !== scriptHash) return null;
  if (voice.audioUrl === audioUrl) return project;
  return setSceneVoice(project, sceneId, { ...voice, audioUrl });
}
