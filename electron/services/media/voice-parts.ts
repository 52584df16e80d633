import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Project } from '../../common/composition/document';
import { capitalise, sceneLabel } from '../../common/composition/render-plan';
import { musicPlanFor, musicVoiceOf } from '../../common/composition/music-track';
import { parseVoicePart } from '../../common/composition/scene-parts';
import { StudioError } from '../host/errors';
import { mixSceneMusic, type SceneMusicDeps } from './music-scenes';

/**
 * The piece of a scene's sound one part of a cut scene sends as its voice (scene-parts.ts): the scene's
 * music mix when it has music (the same mix an uncut scene sends), else its voice, cut from the part's
 * start to its end. One function for every host path that fills a body's voice parts: the editor's
 * Create (bridge call music.voicePart) and a campaign's rows.
 */
export interface VoicePartDeps extends SceneMusicDeps {
  cut: (path: string, fromMs: number, toMs: number, outPath: string) => Promise<void>;
  /** Where the parts are written (beside the mixes). */
  dir: string;
}

export async function sceneVoicePart(
  deps: VoicePartDeps,
  project: Project,
  reference: string,
  signal?: AbortSignal,
): Promise<string> {
  const part = parseVoicePart(reference);
  if (!part) throw new StudioError(`"${reference}" does not name a part of a scene's voice.`, 'voice-part-invalid');
  const sceneIndex = project.scenes.findIndex((s) => s.id === part.sceneId);
  if (sceneIndex < 0) throw new StudioError(`No scene "${part.sceneId}" in this project.`, 'voice-part-invalid');
  const scene = project.scenes[sceneIndex];
  const label = capitalise(sceneLabel(sceneIndex, scene.id, scene.name));
  const whole = await wholeSound(deps, project, part.sceneId, label, signal);
  const key = createHash('sha256').update(`${whole}\n${part.fromMs}\n${part.toMs}`).digest('hex').slice(0, 24);
  const out = join(deps.dir, `part-${key}.mp3`);
  // The same sound and span give the same file: a second Create (or another format) reuses it.
  if (
    await stat(out)
      .then((s) => s.size > 0)
      .catch(() => false)
  )
    return out;
  await mkdir(deps.dir, { recursive: true });
  try {
    await deps.cut(whole, part.fromMs, part.toMs, out);
  } catch (error) {
    throw new StudioError(
      `${label}: the voice could not be cut for the part from ${part.fromMs / 1000} s: ${(error as Error).message}`,
      'voice-part-failed',
    );
  }
  return out;
}

async function wholeSound(
  deps: VoicePartDeps,
  project: Project,
  sceneId: string,
  label: string,
  signal?: AbortSignal,
): Promise<string> {
  if (musicPlanFor(project, sceneId)) return (await mixSceneMusic(deps, project, sceneId, signal)).path;
  const voice = musicVoiceOf(
    project,
    project.scenes.find((s) => s.id === sceneId)!,
  );
  if (voice.kind !== 'audio')
    throw new StudioError(
      `${label}: the speech is only text so far; generate the voiceover first, then it is cut where the scene's elements appear.`,
      'voice-not-generated',
    );
  try {
    return await deps.localPath(voice.url, signal);
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') throw error;
    throw new StudioError(`${label}: the voice could not be opened: ${(error as Error).message}`, 'voice-part-failed');
  }
}
