import type { Project, Scene } from './document';
import { DEFAULT_LOUDNESS, type LoudnessTarget, type MusicTrack } from './music-schema';
import { voiceAudioUrl } from './rules';

// Which music each scene plays, and what its voice is for the mix (the tracks themselves: music-schema.ts).

/** The track a scene plays: its own, none, or the project's. */
export function sceneTrack(project: Pick<Project, 'music'>, scene: Pick<Scene, 'music'>): MusicTrack | null {
  if (scene.music) return 'none' in scene.music ? null : scene.music;
  return project.music ?? null;
}

/**
 * How one scene's music is mixed: the track, where in it this scene starts (the project's track runs
 * on across the scenes that use it, as one piece), and whether this scene fades it in or out (the
 * first and last of a run of scenes sharing the project's track; a scene's own track fades both).
 */
export interface SceneMusicPlan {
  sceneId: string;
  sceneIndex: number;
  track: MusicTrack;
  /** Ms into the music where this scene starts (before looping). */
  offsetMs: number;
  fadeIn: boolean;
  fadeOut: boolean;
  /** The scene's own length: the mix lasts at least this long (an avatar video's scene), 0 for a talking avatar (its speech sets it). */
  minLengthMs: number;
  loudness: LoudnessTarget;
  /** The project's track (shared by other scenes) rather than the scene's own. */
  shared: boolean;
}

export function musicPlans(project: Project): SceneMusicPlan[] {
  const plans: SceneMusicPlan[] = [];
  const loudness = project.loudness ?? DEFAULT_LOUDNESS;
  let sharedMs = 0;
  project.scenes.forEach((scene, sceneIndex) => {
    const track = sceneTrack(project, scene);
    const shared = track !== null && !scene.music;
    const minLengthMs = project.kind === 'avatar-video' ? scene.durationMs : 0;
    if (track) {
      const next = project.scenes[sceneIndex + 1];
      const prevShared = sceneIndex > 0 && !project.scenes[sceneIndex - 1].music && Boolean(project.music);
      const nextShared = next !== undefined && !next.music && Boolean(project.music);
      plans.push({
        sceneId: scene.id,
        sceneIndex,
        track,
        offsetMs: track.startMs + (shared ? sharedMs : 0),
        fadeIn: shared ? !prevShared : true,
        fadeOut: shared ? !nextShared : true,
        minLengthMs,
        loudness,
        shared,
      });
    }
    if (shared) sharedMs += scene.durationMs;
  });
  return plans;
}

export function musicPlanFor(project: Project, sceneId: string): SceneMusicPlan | null {
  return musicPlans(project).find((p) => p.sceneId === sceneId) ?? null;
}

/**
 * The sound the music goes under: what the serialiser would otherwise send as the scene's speech (a
 * talking avatar's first audio element, else the scene's voice). `text` when that is only a script
 * the service would speak: there is no audio yet to mix under.
 */
export type MusicVoice = { kind: 'none' } | { kind: 'audio'; url: string } | { kind: 'text' };

export function musicVoiceOf(project: Pick<Project, 'kind'>, scene: Scene): MusicVoice {
  const audio = project.kind === 'talking-avatar' ? scene.elements.find((e) => e.type === 'audio') : undefined;
  if (audio) return audio.url ? { kind: 'audio', url: audio.url } : { kind: 'text' };
  if (!scene.voice) return { kind: 'none' };
  const url = voiceAudioUrl(scene.voice);
  return url ? { kind: 'audio', url } : { kind: 'text' };
}
