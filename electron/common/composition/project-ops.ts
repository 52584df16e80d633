import {
  DEFAULT_BACKGROUND,
  DEFAULT_SCENE_MS,
  HexColour,
  MAX_SIDE,
  MIN_SIDE,
  OutputSize,
  SCHEMA_VERSION,
  presetById,
  type OutputPresetId,
  type Project,
  type ProjectKind,
  type Scene,
} from './document';
import { reframeProject, type ReframeOptions } from './reframe';
import { switchFormat } from './formats';

/**
 * Project-level pure operations. Every operation returns a new document and leaves its input
 * untouched; one that changes nothing returns its input (same reference), so callers can skip a
 * history entry with `next === doc`.
 */

export class CompositionError extends Error {
  override name = 'CompositionError';
}

export interface NewProjectOptions {
  kind: ProjectKind;
  /** A preset id or an explicit size. */
  output: OutputPresetId | OutputSize;
  name?: string;
  background?: string;
  /** Project id; the projects service passes a fresh random one. */
  id: string;
}

export function createProject(options: NewProjectOptions): Project {
  const output = typeof options.output === 'string' ? presetById(options.output) : checkOutput(options.output);
  return {
    schemaVersion: SCHEMA_VERSION,
    id: options.id,
    name: options.name ?? 'Untitled project',
    kind: options.kind,
    output,
    background: checkColour(options.background ?? DEFAULT_BACKGROUND),
    scenes: [{ id: 'scene-1', durationMs: DEFAULT_SCENE_MS, voice: null, elements: [] }],
  };
}

/**
 * A fresh id, unique within the document, of the form "<prefix>-<n>". Deterministic (no randomness),
 * so operations stay pure and tests stay stable; call it before an add to know the new id.
 */
export function nextId(project: Project, prefix: 'scene' | 'el'): string {
  return freshIds(project, prefix, 1)[0];
}

/** `count` distinct fresh ids, as nextId would hand them out one after another. */
export function freshIds(project: Project, prefix: 'scene' | 'el', count: number): string[] {
  const used = new Set<string>();
  for (const scene of project.scenes) {
    used.add(scene.id);
    for (const element of scene.elements) used.add(element.id);
  }
  let n = 1;
  const pattern = new RegExp(`^${prefix}-(\\d+)$`);
  for (const id of used) {
    const match = pattern.exec(id);
    if (match) n = Math.max(n, Number(match[1]) + 1);
  }
  const ids: string[] = [];
  while (ids.length < count) {
    if (!used.has(`${prefix}-${n}`)) ids.push(`${prefix}-${n}`);
    n += 1;
  }
  return ids;
}

export function setName(project: Project, name: string): Project {
  return project.name === name ? project : { ...project, name };
}

/**
 * Changes the output size. Boxes are in pixels, so the scene is reframed for the new frame
 * (reframe.ts): every element keeps its proportions, where scaling X and Y apart once stretched them.
 * Re-wrapped text is sized by `options.measure` (the font's metrics) when given, else estimated.
 */
export function setOutput(
  project: Project,
  output: OutputSize | OutputPresetId,
  options: ReframeOptions = {},
): Project {
  const to = typeof output === 'string' ? presetById(output) : checkOutput(output);
  // A size the project already has as a format is that format, with the boxes made for it.
  if (project.formats?.some((f) => f.output.width === to.width && f.output.height === to.height))
    return switchFormat(project, to, options);
  return reframeProject(project, to, options);
}

export function setBackground(project: Project, colour: string): Project {
  const checked = checkColour(colour);
  return project.background === checked ? project : { ...project, background: checked };
}

export function findScene(project: Project, sceneId: string): { scene: Scene; index: number } {
  const index = project.scenes.findIndex((s) => s.id === sceneId);
  if (index < 0) throw new CompositionError(`No scene with id "${sceneId}"`);
  return { scene: project.scenes[index], index };
}

/** Replaces one scene by the result of `change`; returns the input if `change` returned its scene. */
export function updateScene(project: Project, sceneId: string, change: (scene: Scene) => Scene): Project {
  const { scene, index } = findScene(project, sceneId);
  const next = change(scene);
  if (next === scene) return project;
  const scenes = project.scenes.slice();
  scenes[index] = next;
  return { ...project, scenes };
}

export function totalDurationMs(project: Project): number {
  return project.scenes.reduce((sum, s) => sum + s.durationMs, 0);
}

function checkOutput(output: OutputSize): OutputSize {
  const parsed = OutputSize.safeParse(output);
  if (!parsed.success) {
    throw new CompositionError(
      `Output size must be whole pixels between ${MIN_SIDE} and ${MAX_SIDE} on each side (got ${output.width}×${output.height}).`,
    );
  }
  return { width: parsed.data.width, height: parsed.data.height };
}

function checkColour(colour: string): string {
  if (!HexColour.safeParse(colour).success)
    throw new CompositionError(`Background must be a colour like #1a2b3c (got "${colour}").`);
  return colour.toLowerCase();
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
