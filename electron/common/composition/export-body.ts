import type { AvatarVideoBody, TalkingAvatarBody } from '../api/video';
import { withCatalogueAvatars, type AvatarLinks } from './avatar-links';
import type { Project, ProjectKind } from './document';
import type { PlacementConvention } from './placement';
import type { PlanTier } from './rules';
import { fitFollowingScenes, type VoiceLengths } from './scene-length';
import { toAvatarVideoBody } from './serialise-avatar-video';
import { toTalkingAvatarBody } from './serialise-talking-avatar';
import { hasErrors, validateProject, type Problem } from './validate';

export type ExportResult =
  | { ok: true; target: 'avatar-video'; body: AvatarVideoBody; warnings: Problem[] }
  | { ok: true; target: 'talking-avatar'; body: TalkingAvatarBody; warnings: Problem[] }
  | { ok: false; target: ProjectKind; problems: Problem[] };

/**
 * Validates for submission, then serialises to the target's request body; errors block the body.
 * `voiceLengths` (each voice's measured length, by scene id) set the scenes that follow their voice;
 * `avatars` (the sending connection's catalogue) give each avatar chosen from a catalogue its link there.
 */
export function exportBody(
  given: Project,
  options: {
    target?: ProjectKind;
    webhookUrl?: string;
    plan?: PlanTier;
    placement?: PlacementConvention;
    voiceLengths?: VoiceLengths;
    avatars?: AvatarLinks;
  } = {},
): ExportResult {
  const linked = withCatalogueAvatars(given, options.avatars);
  const project = options.voiceLengths ? fitFollowingScenes(linked, options.voiceLengths) : linked;
  const target = options.target ?? project.kind;
  const problems = validateProject(project, {
    target,
    purpose: 'submit',
    plan: options.plan,
    placement: options.placement,
  });
  if (hasErrors(problems)) return { ok: false, target, problems };
  const serialise = { webhookUrl: options.webhookUrl, placement: options.placement };
  return target === 'avatar-video'
    ? { ok: true, target, body: toAvatarVideoBody(project, serialise), warnings: problems }
    : { ok: true, target, body: toTalkingAvatarBody(project, serialise), warnings: problems };
}
