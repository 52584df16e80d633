import { computed, type ComputedRef } from 'vue';
import type { MessageApi } from 'naive-ui';
import { placementProblem, validateProject, type Problem } from '@common/composition';
import { fontKnowledge } from '@/text/page-rasteriser';
import { useLinkChecks, type LinkChecks } from './editor-link-checks';
import { useAvatarReadiness } from './editor-avatar-readiness';
import type { useProjectStore } from '@/stores/project';
import type { useEditorAssetsStore } from '@/stores/editor-assets';
import type { useConnectionsStore } from '@/stores/connections';
import { UPLOADS_UNDER_WAY, type useJobsStore } from '@/stores/jobs';
import { useJobQuery } from './job-query';

/**
 * Problems worth seeing on the element itself: what fails or is wasted in the paid result. A text whose
 * font is not on this computer is one: the canvas cannot draw it, so without the mark it showed as an
 * empty box.
 */
const MARKED = new Set([
  'link-broken',
  'link-wrong-kind',
  'off-frame',
  'partly-off-frame',
  'scale-at-limit',
  'distorted',
  'scale-range',
  'avatar-processing',
  'text-font',
]);

export type ElementMark = { level: 'error' | 'warning'; text: string };

/** The canvas's mark per element of a scene: its first marked problem, without the element's name. */
export function elementMarks(problems: readonly Problem[], sceneId: string): Map<string, ElementMark> {
  const found = new Map<string, ElementMark>();
  for (const p of problems) {
    // A note (info) is no mark on the canvas: nothing there needs the user's hand.
    if (p.level === 'info' || !p.elementId || p.sceneId !== sceneId || !MARKED.has(p.code) || found.has(p.elementId))
      continue;
    found.set(p.elementId, { level: p.level, text: p.message.slice(p.message.indexOf(': ') + 2) });
  }
  return found;
}

export interface EditorProblemSources {
  project: ReturnType<typeof useProjectStore>;
  assets: ReturnType<typeof useEditorAssetsStore>;
  connections: ReturnType<typeof useConnectionsStore>;
  jobs: ReturnType<typeof useJobsStore>;
  message: MessageApi;
}

/**
 * Everything the editor knows is wrong with the open project before it is sent: the document's own
 * checks, its links as the host last saw them, avatars still processing and an unverified placement.
 * The Problems panel, the toolbar counts, the marks on the canvas and the Create dialog's pre-flight
 * all read this one list.
 */
export function useEditorProblems({ project, assets, connections, jobs, message }: EditorProblemSources) {
  const links: LinkChecks = useLinkChecks(() => project.doc);
  const placement = computed(() => connections.active?.placement);
  // The uploads still with the service, as the Assets panel reads them (one question, shared).
  const uploads = useJobQuery(jobs, () => UPLOADS_UNDER_WAY);
  const avatars = useAvatarReadiness({
    project: () => project.doc,
    avatars: () => assets.avatars,
    jobs: () => uploads.value,
    connectionId: () => connections.active?.id ?? null,
    reload: () => assets.load(),
  });
  const problems = computed<Problem[]>(() => {
    const unverified = connections.active ? placementProblem(connections.active) : null;
    void fontKnowledge.value; // a text in a system font is judged again once the computer's fonts are known
    return [
      ...validateProject(project.doc, { purpose: 'submit', placement: placement.value }),
      ...links.problems.value,
      ...avatars.problems.value,
      ...(unverified ? [unverified] : []),
    ];
  });
  const errorCount = computed(() => problems.value.filter((p) => p.level === 'error').length);
  const warningCount = computed(() => problems.value.filter((p) => p.level === 'warning').length);
  const linkState = computed(() => ({
    total: links.total.value,
    unchecked: links.unchecked.value,
    checking: links.checking.value,
    failure: links.failure.value,
  }));

  const marks: ComputedRef<Map<string, ElementMark>> = computed(() =>
    elementMarks(problems.value, project.currentScene.id),
  );

  /** The Create dialog's pre-flight: every link asked again, and the avatars' state read afresh. */
  async function preflight(): Promise<Problem[]> {
    const [found, avatarsFound] = await Promise.all([links.check(true), avatars.recheck()]);
    return [...found, ...avatarsFound];
  }

  async function checkLinks(): Promise<void> {
    const found = await links.check(true).catch(() => null);
    if (found === null)
      message.error(`Links could not be checked: ${links.failure.value ?? 'the studio host did not answer'}`);
    else if (found.some((p) => p.level === 'error'))
      message.error(`${found.filter((p) => p.level === 'error').length} link problem(s): see Problems`);
    else message.success(`All ${links.total.value} link${links.total.value === 1 ? '' : 's'} answer`);
  }

  return { links, placement, problems, errorCount, warningCount, linkState, marks, preflight, checkLinks };
}
