import type { Project, Scene, SceneElement } from './document';
import type { Add, Where } from './check-where';
import { CompositionError, updateScene } from './project-ops';
import { isTimed, shownSpan } from './timing-span';

export { isTimed, shownAt, shownSpan } from './timing-span';

/**
 * An element's own time inside its scene: a title that appears at 2 s, a logo that leaves before the
 * end. The canvas while playing and the local preview honour it. The service's request bodies cannot
 * say it (an element of createVideo or talkingavatar has a place and a layer, no time), so the service
 * shows every element for its whole scene; Problems says so for each timed element, and the timing
 * panel says it beside the fields. (Splitting the scene into items at each change would cut the voice
 * and restart the avatar's speech; the studio does not do that.)
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

/** Problems: a timing outside its scene, and for every timed element, that the service cannot show it. */
export function checkElementTiming(element: SceneElement, scene: Scene, at: Where, add: Add): void {
  if (!isTimed(element) || element.type === 'audio') return;
  const { from, to } = shownSpan(element, scene);
  if (from >= to) {
    add('warning', 'timing-empty', 'its timing leaves it no time inside the scene, so it never shows.', at);
    return;
  }
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  add(
    'warning',
    'timing-not-sent',
    `shows from ${seconds(from)} to ${seconds(to)} in the preview, but the service has no timing for elements: in the video it shows for the whole scene.`,
    at,
  );
}
