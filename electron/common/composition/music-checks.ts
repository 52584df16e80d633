import type { Project, ProjectKind } from './document';
import { musicVoiceOf, sceneTrack } from './music-track';
import { capitalise, sceneLabel } from './render-plan';
import { urlKind } from './rules';
import type { Problem } from './problem';

/**
 * What stands between a project's music and the service: the music is never sent itself (the studio
 * sends its mix under the voice), so what matters is that the studio can read it and that there is a
 * voice as audio to mix under.
 */
export function musicProblems(project: Project, target: ProjectKind, submit: boolean): Problem[] {
  const problems: Problem[] = [];
  project.scenes.forEach((scene, sceneIndex) => {
    const track = sceneTrack(project, scene);
    if (!track) return;
    const where = { sceneIndex, sceneId: scene.id };
    const prefix = `${capitalise(sceneLabel(sceneIndex, scene.id, scene.name))}, music (${track.name})`;
    const add = (level: Problem['level'], code: string, text: string): void =>
      void problems.push({ level, code, message: `${prefix}: ${text}`, ...where });
    const kind = urlKind(track.url);
    if (kind !== 'remote' && !(kind === 'local' && track.url.startsWith('file:'))) {
      add(
        'error',
        'music-file',
        'is not a file the studio took in or an http(s) link; add the music again from your files.',
      );
      return;
    }
    const voice = musicVoiceOf({ kind: target }, scene);
    // An avatar video's voiceover not generated yet is reported by the voice check already.
    if (voice.kind === 'text' && target === 'talking-avatar' && submit) {
      add(
        'error',
        'music-needs-audio',
        'the speech is only text the service would speak, so there is nothing to mix the music under. Generate the voiceover first (or use an audio file).',
      );
    }
    if (target === 'talking-avatar' && scene.elements.filter((e) => e.type === 'audio').length > 1) {
      add(
        'warning',
        'music-extra-audio',
        'only the first audio element is mixed with the music and sent; the others are left out.',
      );
    }
    if (submit)
      add(
        'info',
        'music-mixed',
        `is mixed under the voice on this computer (${project.loudness?.lufs ?? -16} LUFS) and the mix is uploaded to your storage as the scene's voice when you create the video.`,
      );
  });
  return problems;
}
