import type { Project } from './document';
import { capitalise, elementLabel, sceneLabel } from './render-plan';
import type { Problem } from './validate';

/** What the catalogue says of an avatar now (see common/catalogue/avatar-facts.ts). */
export type AvatarReadiness = 'ready' | 'processing' | 'failed' | 'disabled';

const WHY: Record<Exclude<AvatarReadiness, 'ready'>, string> = {
  processing:
    'the uploaded avatar is still being processed by the service; a job with it would fail. Send it once Tools → Avatars shows it Ready.',
  failed:
    "the avatar's upload failed on the service; a job with it would fail. Upload it again or choose another avatar.",
  disabled: 'the avatar is disabled on the service; a job with it would fail. Choose another avatar.',
};

/**
 * Avatar elements whose avatar the service cannot use yet (an upload still processing) or any more:
 * errors, since the paid job would be refused. `stateOf` answers from the catalogue the editor holds;
 * an avatar it does not know (not loaded yet, another connection) is not guessed about.
 */
export function avatarReadinessProblems(
  project: Project,
  stateOf: (avatarId: string) => AvatarReadiness | undefined,
): Problem[] {
  const problems: Problem[] = [];
  project.scenes.forEach((scene, sceneIndex) => {
    for (const element of scene.elements) {
      if (element.type !== 'avatar' || !element.avatarId) continue;
      const state = stateOf(element.avatarId);
      if (!state || state === 'ready') continue;
      const where = capitalise(elementLabel(sceneLabel(sceneIndex, scene.id, scene.name), element.id, element.name));
      problems.push({
        level: 'error',
        code: `avatar-${state}`,
        message: `${where}: ${WHY[state]}`,
        sceneIndex,
        sceneId: scene.id,
        elementId: element.id,
      });
    }
  });
  return problems;
}
