import type { Scene, SceneElement } from './document';

// When an element is on screen inside its scene (element-timing.ts): a leaf the compositor's plan and
// the canvas both read, so neither pulls in the operations.

export function isTimed(element: Pick<SceneElement, 'startMs' | 'endMs'>): boolean {
  return element.startMs !== undefined || element.endMs !== undefined;
}

/** The span an element shows in its scene, in ms from the scene's start. */
export function shownSpan(
  element: Pick<SceneElement, 'startMs' | 'endMs'>,
  scene: Pick<Scene, 'durationMs'>,
): { from: number; to: number } {
  const from = Math.min(element.startMs ?? 0, scene.durationMs);
  const to = Math.min(element.endMs ?? scene.durationMs, scene.durationMs);
  return { from, to: Math.max(from, to) };
}

/** Whether the element is on screen `ms` after its scene starts (from its start, until before its end). */
export function shownAt(
  element: Pick<SceneElement, 'startMs' | 'endMs'>,
  scene: Pick<Scene, 'durationMs'>,
  ms: number,
): boolean {
  const { from, to } = shownSpan(element, scene);
  return ms >= from && ms < to;
}
