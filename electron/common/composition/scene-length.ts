import type { Project } from './document';
import { capitalise, sceneLabel } from './render-plan';
import { followsVoice, sceneLengthFor, VOICE_OVERRUN_TOLERANCE_MS, voiceRunsText } from './voice-follow';

/** Voice lengths in milliseconds by scene id: measured (a made voiceover, ffprobe) or estimated (the draft voice). */
export type VoiceLengths = Readonly<Record<string, number>>;

/**
 * The project with every scene that follows its voice as long as that voice (rounded up to the editor's
 * 100 ms steps). Scenes of fixed length, and those whose voice length is not known, keep theirs. Returns
 * the same project when nothing changes.
 */
export function fitFollowingScenes(project: Project, lengths: VoiceLengths): Project {
  let changed = false;
  const scenes = project.scenes.map((scene) => {
    const voiceMs = lengths[scene.id];
    if (voiceMs === undefined || !followsVoice(project, scene)) return scene;
    const durationMs = sceneLengthFor(voiceMs);
    if (durationMs === scene.durationMs) return scene;
    changed = true;
    return { ...scene, durationMs };
  });
  return changed ? { ...project, scenes } : project;
}

/** A voice longer than its fixed-length scene: the service would cut the rest off. */
export interface VoiceOverrun {
  sceneIndex: number;
  sceneId: string;
  voiceMs: number;
  sceneMs: number;
}

/**
 * Each fixed-length scene whose voice runs past its end (by more than the tolerance). A talking avatar
 * sends no lengths (its result lasts as long as its speech): nothing of it is cut.
 */
export function voiceOverruns(project: Project, lengths: VoiceLengths): VoiceOverrun[] {
  const found: VoiceOverrun[] = [];
  if (project.kind !== 'avatar-video') return found;
  project.scenes.forEach((scene, sceneIndex) => {
    const voiceMs = lengths[scene.id];
    if (voiceMs === undefined || followsVoice(project, scene)) return;
    if (voiceMs > scene.durationMs + VOICE_OVERRUN_TOLERANCE_MS)
      found.push({ sceneIndex, sceneId: scene.id, voiceMs, sceneMs: scene.durationMs });
  });
  return found;
}

/** "Scene 1 (greeting): the voice runs about 6.4 s, the scene is 5.0 s" (`about` for an estimate). */
export function overrunText(project: Project, overrun: VoiceOverrun, estimated: boolean): string {
  const scene = project.scenes[overrun.sceneIndex];
  const where = capitalise(sceneLabel(overrun.sceneIndex, overrun.sceneId, scene?.name));
  return `${where}: ${voiceRunsText(overrun.voiceMs, overrun.sceneMs, estimated)}`;
}
