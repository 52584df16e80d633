import { capitalise, sceneLabel, type RenderPlan } from '../../common/composition/render-plan';
import type { Project } from '../../common/composition/document';
import { musicPlanFor, musicPlans, musicVoiceOf, type SceneMusicPlan } from '../../common/composition/music-track';
import { StudioError } from '../host/errors';
import { MusicMixError, type MusicMixer, type MusicMixResult } from './music-mix';

/**
 * A project's scenes with music, mixed by the one mixer for both places they are heard: submit (the
 * mix is sent as the scene's voice) and the local preview (the mix replaces the voice in the plan).
 */
export interface SceneMusicDeps {
  mixer: MusicMixer;
  /** A media reference (a granted file: or an http(s) link) as a local file. */
  localPath: (reference: string, signal?: AbortSignal) => Promise<string>;
}

/** The mix of one scene's music under its voice (what submit sends); a StudioError says what is wrong. */
export async function mixSceneMusic(
  deps: SceneMusicDeps,
  project: Project,
  sceneId: string,
  signal?: AbortSignal,
): Promise<MusicMixResult> {
  const plan = musicPlanFor(project, sceneId);
  if (!plan) throw new StudioError(`Scene "${sceneId}" has no music.`, 'no-music');
  const scene = project.scenes[plan.sceneIndex];
  const label = labelOf(project, plan);
  const voice = musicVoiceOf(project, scene);
  if (voice.kind === 'text')
    throw new StudioError(
      `${label}: the speech is only text so far; generate the voiceover first, then the music is mixed under it.`,
      'voice-not-generated',
    );
  return mixed(
    deps,
    plan,
    label,
    voice.kind === 'audio' ? await local(deps, voice.url, `${label}: the voice`, signal) : null,
    signal,
  );
}

/**
 * The preview's plan with each scene's music mixed under the voice it plays (`voiceFile`: the local
 * file the preview resolved for that scene's speech, the draft voice's for text not generated yet).
 */
export async function withPlanMusic(
  deps: SceneMusicDeps,
  project: Project,
  plan: RenderPlan,
  voiceFile: (sceneIndex: number) => string | null,
  signal?: AbortSignal,
): Promise<RenderPlan> {
  const plans = musicPlans(project);
  if (plans.length === 0) return plan;
  const scenes = plan.scenes.slice();
  for (const music of plans) {
    const scene = scenes[music.sceneIndex];
    if (!scene) continue;
    const label = labelOf(project, music);
    const voice = voiceFile(music.sceneIndex);
    const result = await mixed(deps, music, label, voice, signal);
    const others = scene.audio.filter((track) => track.path !== voice);
    scenes[music.sceneIndex] = {
      ...scene,
      audio: [{ path: result.path, label: `${label}, voice with music`, durationMs: result.durationMs }, ...others],
    };
  }
  return { ...plan, scenes };
}

async function mixed(
  deps: SceneMusicDeps,
  plan: SceneMusicPlan,
  label: string,
  voicePath: string | null,
  signal?: AbortSignal,
): Promise<MusicMixResult> {
  const musicPath = await local(deps, plan.track.url, `${label}: the music (${plan.track.name})`, signal);
  try {
    return await deps.mixer.mix({ voicePath, musicPath, plan, label, signal });
  } catch (error) {
    if (error instanceof MusicMixError) throw new StudioError(error.message, 'music-mix-failed');
    throw error;
  }
}

async function local(deps: SceneMusicDeps, reference: string, what: string, signal?: AbortSignal): Promise<string> {
  try {
    return await deps.localPath(reference, signal);
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') throw error;
    throw new StudioError(`${what} could not be opened: ${(error as Error).message}`, 'music-mix-failed');
  }
}

function labelOf(project: Project, plan: SceneMusicPlan): string {
  const scene = project.scenes[plan.sceneIndex];
  return capitalise(sceneLabel(plan.sceneIndex, scene.id, scene.name));
}
