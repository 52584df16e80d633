import { MAX_SCENE_MS, MIN_SCENE_MS, type Project, type Scene } from './document';

/**
 * Whether a scene's length follows its voice (set to the voice's length once that is known) or stays
 * as the user set it. The scene's own choice wins, then the project's; left to neither, an avatar
 * video's voiceover whose script is a campaign template's (it holds a {{variable}}) follows, since
 * its length changes with every row and no fixed length fits them all.
 */
export function followsVoice(project: Pick<Project, 'kind' | 'followVoice'>, scene: Scene): boolean {
  if (project.kind !== 'avatar-video' || !scene.voice) return false;
  if (scene.followVoice !== undefined) return scene.followVoice;
  if (project.followVoice !== undefined) return project.followVoice;
  return scene.voice.kind === 'tts' && hasTemplateVariable(scene.voice.text);
}

/** A campaign template variable, `{{name}}` (common/campaign/variables.ts fills them). */
export const TEMPLATE_VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function hasTemplateVariable(text: string): boolean {
  return new RegExp(TEMPLATE_VARIABLE.source).test(text);
}

/** How a user fits a voice into its scene, in the words every screen uses. */
export const HOW_TO_FIT_VOICE = 'lengthen the scene, let it follow its voice, or shorten the text';

/** "the voice runs about 6.4 s, the scene is 5.0 s" (`about` for an estimate). */
export function voiceRunsText(voiceMs: number, sceneMs: number, estimated: boolean): string {
  return `the voice runs ${estimated ? 'about ' : ''}${secondsText(voiceMs)} s, the scene is ${secondsText(sceneMs)} s`;
}

function secondsText(ms: number): string {
  return (Math.round(ms / 100) / 10).toFixed(1);
}

/** How far a voice may run past its scene before it counts as cut (the service cuts it silently). */
export const VOICE_OVERRUN_TOLERANCE_MS = 100;

/** A scene length that holds a voice: its length rounded up to the editor's 100 ms steps. */
export function sceneLengthFor(voiceMs: number): number {
  return Math.min(MAX_SCENE_MS, Math.max(MIN_SCENE_MS, Math.ceil(voiceMs / 100) * 100));
}
