import { SceneElement, type Project, type Scene } from './document';
import { stackingOrder } from './geometry';
import { CompositionError, findScene, nextId, round2, updateScene } from './project-ops';

/**
 * Element operations: pure, each returns a new document (or its input when nothing changed).
 * Move and scale leave a locked element where it is (the input is returned); editing its other
 * fields, reordering and deleting still work here. The editor's Delete also leaves it (stores/project.ts),
 * so a lock guards against stray drags and a select-all; the brand kit still replaces its own logo.
 */

export type ElementDraft = Omit<SceneElement, 'id' | 'layer'> & { id?: string; layer?: number };

/** Adds an element on top of the scene (unless a layer is given). Id: draft.id or nextId(project,'el'). */
export function addElement(project: Project, sceneId: string, draft: ElementDraft): Project {
  const id = draft.id ?? nextId(project, 'el');
  if (project.scenes.some((s) => s.id === id || s.elements.some((e) => e.id === id))) {
    throw new CompositionError(`An element or scene with id "${id}" already exists`);
  }
  return updateScene(project, sceneId, (scene) => {
    const layer = draft.layer ?? topLayer(scene) + 1;
    const element = SceneElement.parse({
      ...draft,
      id,
      layer,
      width: clampSize(draft.width, project.output.width),
      height: clampSize(draft.height, project.output.height),
    });
    return { ...scene, elements: [...scene.elements, element] };
  });
}

export function findElement(project: Project, sceneId: string, elementId: string): SceneElement {
  const { scene } = findScene(project, sceneId);
  const element = scene.elements.find((e) => e.id === elementId);
  if (!element) throw new CompositionError(`No element "${elementId}" in scene "${sceneId}"`);
  return element;
}

/** Moves an element's top-left corner to (x, y) output pixels. */
export function moveElement(project: Project, sceneId: string, elementId: string, x: number, y: number): Project {
  return changeElement(project, sceneId, elementId, (e) => (e.locked ? e : { ...e, x: round2(x), y: round2(y) }));
}

/**
 * Sets an element's size in output pixels, and optionally its top-left corner in the same step, as a
 * resize from any handle other than the bottom-right one needs.
 */
export function scaleElement(
  project: Project,
  sceneId: string,
  elementId: string,
  width: number,
  height: number,
  position?: { x: number; y: number },
): Project {
  return changeElement(project, sceneId, elementId, (e) => {
    if (e.locked) return e;
    const next = {
      ...e,
      width: clampSize(width, project.output.width),
      height: clampSize(height, project.output.height),
    };
    if (position) {
      next.x = round2(position.x);
      next.y = round2(position.y);
    }
    return next;
  });
}

/** Fields an editor may change freely (not the id, not the layer: use the layer operations). */
export type ElementPatch = Partial<Omit<SceneElement, 'id' | 'layer'>>;

export function updateElement(project: Project, sceneId: string, elementId: string, patch: ElementPatch): Project {
  return changeElement(project, sceneId, elementId, (e) => {
    const merged = { ...e, ...patch };
    if (patch.width !== undefined) merged.width = clampSize(patch.width, project.output.width);
    if (patch.height !== undefined) merged.height = clampSize(patch.height, project.output.height);
    return SceneElement.parse(merged);
  });
}

export function setElementLocked(project: Project, sceneId: string, elementId: string, locked: boolean): Project {
  return changeElement(project, sceneId, elementId, (e) => (Boolean(e.locked) === locked ? e : { ...e, locked }));
}

export function deleteElement(project: Project, sceneId: string, elementId: string): Project {
  findElement(project, sceneId, elementId);
  return updateScene(project, sceneId, (scene) => ({
    ...scene,
    elements: scene.elements.filter((e) => e.id !== elementId),
  }));
}

/** Copies an element (new id, on top, shifted by `shift` pixels so the copy is visible). */
export function duplicateElement(
  project: Project,
  sceneId: string,
  elementId: string,
  options: { id?: string; shift?: number } = {},
): Project {
  const source = findElement(project, sceneId, elementId);
  const shift = options.shift ?? 24;
  const { id: _id, layer: _layer, locked: _locked, ...rest } = source;
  return addElement(project, sceneId, {
    ...rest,
    id: options.id ?? nextId(project, 'el'),
    x: source.x + shift,
    y: source.y + shift,
    name: source.name ? `${source.name} copy` : undefined,
  });
}

/**
 * Puts the scene's elements in the given stacking order (bottom first) and renumbers layers 1..n.
 * Every element of the scene must be listed exactly once.
 */
export function reorderLayers(project: Project, sceneId: string, bottomToTopIds: readonly string[]): Project {
  return updateScene(project, sceneId, (scene) => {
    const ids = new Set(bottomToTopIds);
    if (
      ids.size !== bottomToTopIds.length ||
      ids.size !== scene.elements.length ||
      scene.elements.some((e) => !ids.has(e.id))
    ) {
      throw new CompositionError(`reorderLayers needs every element of scene "${sceneId}" exactly once`);
    }
    const layerOf = new Map(bottomToTopIds.map((id, i) => [id, i + 1]));
    return relayer(scene, layerOf);
  });
}

export const bringForward = (p: Project, sceneId: string, elementId: string): Project =>
  shiftLayer(p, sceneId, elementId, +1);
export const sendBackward = (p: Project, sceneId: string, elementId: string): Project =>
  shiftLayer(p, sceneId, elementId, -1);
export const bringToFront = (p: Project, sceneId: string, elementId: string): Project =>
  shiftLayer(p, sceneId, elementId, Infinity);
export const sendToBack = (p: Project, sceneId: string, elementId: string): Project =>
  shiftLayer(p, sceneId, elementId, -Infinity);

function shiftLayer(project: Project, sceneId: string, elementId: string, by: number): Project {
  findElement(project, sceneId, elementId);
  return updateScene(project, sceneId, (scene) => {
    const order = stackingOrder(scene.elements).map((e) => e.id);
    const from = order.indexOf(elementId);
    const to = Math.max(0, Math.min(order.length - 1, from + by));
    if (to === from) return scene;
    order.splice(from, 1);
    order.splice(to, 0, elementId);
    return relayer(scene, new Map(order.map((id, i) => [id, i + 1])));
  });
}

function relayer(scene: Scene, layerOf: Map<string, number>): Scene {
  const unchanged = scene.elements.every((e) => e.layer === layerOf.get(e.id));
  if (unchanged) return scene;
  return { ...scene, elements: scene.elements.map((e) => ({ ...e, layer: layerOf.get(e.id) ?? e.layer })) };
}

function changeElement(
  project: Project,
  sceneId: string,
  elementId: string,
  change: (e: SceneElement) => SceneElement,
): Project {
  findElement(project, sceneId, elementId);
  return updateScene(project, sceneId, (scene) => {
    let changed = false;
    const elements = scene.elements.map((e) => {
      if (e.id !== elementId) return e;
      const next = change(e);
      changed = next !== e;
      return next;
    });
    return changed ? { ...scene, elements } : scene;
  });
}

function topLayer(scene: Scene): number {
  return scene.elements.reduce((max, e) => Math.max(max, e.layer), 0);
}

/** Sizes are hundredths of a pixel, from nothing to the whole frame (the service's limit at a scale of the frame). */
function clampSize(value: number, max: number): number {
  if (!Number.isFinite(value)) throw new CompositionError(`A size must be a number of pixels (got ${value})`);
  return Math.max(0, Math.min(max, round2(value)));
}
