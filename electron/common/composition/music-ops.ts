import type { Project } from './document';
import { CompositionError, updateScene } from './project-ops';
import { LOUDNESS_PRESETS, LoudnessTarget, MusicTrack, type LoudnessPresetId, type SceneMusic } from './music-schema';

/**
 * Music operations, pure like every other: each returns a new document (the same one when nothing
 * changes), so the editor's history keeps one step per change.
 */

/** Which track an edit is about: the project's, or one scene's own. */
export type MusicOwner = { scope: 'project' } | { scope: 'scene'; sceneId: string };

/** Sets (or, with null, removes) the project's track. */
export function setProjectMusic(project: Project, track: MusicTrack | null): Project {
  if (track === null) {
    if (!project.music) return project;
    const { music: _music, ...rest } = project;
    return rest;
  }
  return { ...project, music: checked(track) };
}

/** A scene's own music, `{ none: true }` for none, or null to follow the project's again. */
export function setSceneMusic(project: Project, sceneId: string, music: SceneMusic | null): Project {
  return updateScene(project, sceneId, (scene) => {
    if (music === null) {
      if (!scene.music) return scene;
      const { music: _music, ...rest } = scene;
      return rest;
    }
    return { ...scene, music: 'none' in music ? music : checked(music) };
  });
}

/** Changes some settings of the track `owner` plays. */
export function patchMusic(project: Project, owner: MusicOwner, patch: Partial<Omit<MusicTrack, 'url'>>): Project {
  const current = owner.scope === 'project' ? project.music : project.scenes.find((s) => s.id === owner.sceneId)?.music;
  if (!current || 'none' in current)
    throw new CompositionError(
      owner.scope === 'project' ? 'The project has no music' : `Scene "${owner.sceneId}" has no music of its own`,
    );
  const next = { ...current, ...patch };
  if (Object.keys(patch).every((k) => next[k as keyof MusicTrack] === current[k as keyof MusicTrack])) return project;
  return owner.scope === 'project' ? setProjectMusic(project, next) : setSceneMusic(project, owner.sceneId, next);
}

/** A preset's target, or a custom one. */
export function setLoudness(project: Project, target: LoudnessPresetId | Omit<LoudnessTarget, 'preset'>): Project {
  let next: LoudnessTarget;
  if (typeof target === 'string') {
    const preset = LOUDNESS_PRESETS.find((p) => p.id === target);
    if (!preset) throw new CompositionError(`Unknown loudness preset "${target}"`);
    next = { preset: preset.id, lufs: preset.lufs, truePeakDb: preset.truePeakDb };
  } else {
    next = { preset: 'custom', lufs: target.lufs, truePeakDb: target.truePeakDb };
  }
  const parsed = checkedLoudness(next);
  const current = project.loudness;
  if (
    current &&
    current.preset === parsed.preset &&
    current.lufs === parsed.lufs &&
    current.truePeakDb === parsed.truePeakDb
  )
    return project;
  return { ...project, loudness: parsed };
}

function checked(track: MusicTrack): MusicTrack {
  const result = MusicTrack.safeParse(track);
  if (!result.success)
    throw new CompositionError(
      `Music: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  return result.data;
}

function checkedLoudness(target: LoudnessTarget): LoudnessTarget {
  const result = LoudnessTarget.safeParse(target);
  if (!result.success)
    throw new CompositionError(
      `A loudness target must be −40 to −10 LUFS with a true peak of −9 to 0 dBTP (got ${target.lufs} LUFS, ${target.truePeakDb} dBTP)`,
    );
  return result.data;
}
