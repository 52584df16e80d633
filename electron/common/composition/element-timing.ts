import type { Project, ProjectKind, Scene, SceneElement } from './document';
import type { Add, Where } from './check-where';
import { CompositionError, updateScene } from './project-ops';
import { isTimed, shownSpan } from './timing-span';
import { sceneCuts } from './scene-parts';

export { isTimed, shownAt, shownSpan } from './timing-span';

/**
 * An element's own time inside its scene: a title that appears at 2 s, a logo that leaves before the
 * end. The canvas while playing and the local preview honour it, and so does an avatar-video body: the
 * scene is sent as consecutive items cut at each appearance and exit (scene-parts.ts). A talking-avatar
 * body cannot say it (one scene, no duration, elements with a place and no time), so there the service
 * shows every element for its whole scene, and Problems and the timing panel say so.
 */
export interface ElementTiming {
  startMs?: number | null;
  endMs?: number | null;
}

/**
 * Sets when an element shows (null clears a bound: from the start, until the end). Whole milliseconds;
 * an end at or before the start is refused with the reason.
 */
export function setElementTiming(project: Project, sceneId: string, elementId: string, timing: ElementTiming): Project {
  return updateScene(project, sceneId, (scene) => {
    const element = scene.elements.find((e) => e.id === elementId);
    if (!element) throw new CompositionError(`No element "${elementId}" in scene "${sceneId}"`);
    const pick = (value: number | null | undefined, was: number | undefined): number | undefined =>
      value === undefined ? was : value === null ? undefined : Math.max(0, Math.round(value));
    const startMs = pick(timing.startMs, element.startMs);
    const endMs = pick(timing.endMs, element.endMs);
    if (startMs !== undefined && startMs >= scene.durationMs)
      throw new CompositionError(`It would appear after its scene ends (${scene.durationMs / 1000} s).`);
    if (endMs !== undefined && endMs <= (startMs ?? 0))
      throw new CompositionError('It would leave before it appears: the end must come after the start.');
    if (startMs === element.startMs && endMs === element.endMs) return scene;
    const { startMs: _s, endMs: _e, ...rest } = element;
    const next: SceneElement = {
      ...rest,
      ...(startMs !== undefined && startMs > 0 && { startMs }),
      ...(endMs !== undefined && endMs < scene.durationMs && { endMs }),
    };
    return { ...scene, elements: scene.elements.map((e) => (e.id === elementId ? next : e)) };
  });
}

/**
 * Problems: a timing outside its scene; on a talking avatar, that the service cannot show it; on an
 * avatar video, what a cut does to a clip or an avatar that runs across it (an item has no start point
 * for a clip, and the interface does not say an avatar's motion carries on into the next item).
 */
export function checkElementTiming(
  element: SceneElement,
  scene: Scene,
  target: ProjectKind,
  at: Where,
  add: Add,
): void {
  if (element.type === 'audio') return;
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  if (isTimed(element)) {
    const { from, to } = shownSpan(element, scene);
    if (from >= to) {
      add('warning', 'timing-empty', 'its timing leaves it no time inside the scene, so it never shows.', at);
      return;
    }
    if (target === 'talking-avatar') {
      add(
        'warning',
        'timing-not-sent',
        `shows from ${seconds(from)} to ${seconds(to)} in the preview, but a talking avatar has no timing for elements: in the video it shows for the whole scene.`,
        at,
      );
      return;
    }
  }
  if (target !== 'avatar-video' || (element.type !== 'video' && element.type !== 'avatar')) return;
  const { from, to } = shownSpan(element, scene);
  const across = sceneCuts(scene).filter((ms) => ms > from && ms < to);
  if (across.length === 0) return;
  const cutsText = across.map(seconds).join(', ');
  add(
    'warning',
    'timing-cut',
    element.type === 'video'
      ? `the scene is sent in parts cut at ${cutsText} (for elements timed in it), and a part cannot start a clip part-way: this clip starts again from its beginning at each cut.`
      : `the scene is sent in parts cut at ${cutsText} (for elements timed in it); the avatar speaks each part's piece of the voice, but the interface does not say its motion carries on across a cut, so it may jump there.`,
    at,
  );
}
