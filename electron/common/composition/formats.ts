import { ratioOf, type OutputSize, type Project, type Scene, type SceneElement } from './document';
import type { ElementLayout, FormatLayout } from './format-schema';
import { reframeElements, reframeProject, type ReframeOptions } from './reframe';
import type { TextStyle } from './text-style';

/**
 * Formats as variants of one project (16:9, 9:16, 1:1, 4:5 or any size). The document's `output` and
 * its elements' boxes are the format being edited; `project.formats` keeps the boxes of the others.
 * Everything else (words, media, voices, timing, captions, music) is one copy, so an edit to content
 * reaches every format, while a box moved in one format stays where it was in the others.
 *
 * A format is added by reframing (reframe.ts: nothing changes its proportions, text stays inside the
 * safe area); switching swaps the boxes; each format is a plain project for the serialisers, so its
 * request body is made exactly as a one-format project's would be.
 */
export interface ProjectFormat {
  key: string;
  output: OutputSize;
  /** The format being edited (the document's own `output`). */
  current: boolean;
  /** "9:16 · 1080×1920". */
  label: string;
}

export function formatKey(output: OutputSize): string {
  return `${output.width}x${output.height}`;
}

export function formatLabel(output: OutputSize): string {
  return `${ratioOf(output)} · ${output.width}×${output.height}`;
}

function sameSize(a: OutputSize, b: OutputSize): boolean {
  return a.width === b.width && a.height === b.height;
}

/** Every format of the project, widest first (a stable order, whichever one is being edited). */
export function formatsOf(project: Project): ProjectFormat[] {
  const all = [project.output, ...(project.formats ?? []).map((f) => f.output)];
  return all
    .map((output) => ({
      key: formatKey(output),
      output: { width: output.width, height: output.height },
      current: sameSize(output, project.output),
      label: formatLabel(output),
    }))
    .sort(
      (a, b) => b.output.width / b.output.height - a.output.width / a.output.height || b.output.width - a.output.width,
    );
}

export function hasFormat(project: Project, output: OutputSize): boolean {
  return formatsOf(project).some((f) => sameSize(f.output, output));
}

/**
 * A short fingerprint of a text's look apart from its wrapping: a layout made for another look (the
 * words or the size changed since) is laid out again rather than drawn at a stale size.
 */
export function styleSignature(style: TextStyle): string {
  const { wrapWidth: _wrap, ...look } = style;
  const text = JSON.stringify(look);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function layoutOfElement(e: SceneElement): ElementLayout {
  const layout: ElementLayout = { x: e.x, y: e.y, width: e.width, height: e.height };
  if (e.type !== 'text' || !e.text) return layout;
  const mediaSize = e.mediaSize && { width: e.mediaSize.width, height: e.mediaSize.height };
  return { ...layout, mediaSize, wrapWidth: e.text.wrapWidth, styleSignature: styleSignature(e.text) };
}

/** The boxes of the format being edited, as another format keeps them. */
export function currentLayout(project: Project): FormatLayout {
  const elements: Record<string, ElementLayout> = {};
  for (const scene of project.scenes)
    for (const e of scene.elements) if (e.type !== 'audio') elements[e.id] = layoutOfElement(e);
  return { output: { width: project.output.width, height: project.output.height }, elements };
}

function usable(e: SceneElement, layout: ElementLayout | undefined): layout is ElementLayout {
  if (!layout) return false;
  if (e.type !== 'text' || !e.text) return true;
  return layout.styleSignature === styleSignature(e.text) && layout.mediaSize !== undefined;
}

function withLayout(e: SceneElement, layout: ElementLayout): SceneElement {
  const box = { x: layout.x, y: layout.y, width: layout.width, height: layout.height };
  if (e.type !== 'text' || !e.text) return { ...e, ...box };
  return { ...e, ...box, mediaSize: layout.mediaSize, text: { ...e.text, wrapWidth: layout.wrapWidth ?? null } };
}

/**
 * A text whose look changed since this format's layout was made (new words, another size): it keeps its
 * place and scale in this format and wraps at this format's width, measured anew, so an adjustment made
 * in this format survives an edit made in another. Without a measure it is reframed instead.
 */
function restyledText(
  e: SceneElement,
  layout: ElementLayout | undefined,
  options: ReframeOptions,
): SceneElement | null {
  if (!layout?.mediaSize || !e.text || !options.measure) return null;
  const text = { ...e.text, wrapWidth: layout.wrapWidth ?? null };
  const natural = options.measure(text);
  const k = layout.width / layout.mediaSize.width;
  const round2 = (v: number): number => Math.round(v * 100) / 100;
  return {
    ...e,
    x: layout.x,
    y: layout.y,
    width: round2(natural.width * k),
    height: round2(natural.height * k),
    mediaSize: { width: natural.width, height: natural.height },
    text,
  };
}

function sceneIn(scene: Scene, from: OutputSize, format: FormatLayout, options: ReframeOptions): Scene {
  const kept = scene.elements.map((e) => {
    const layout = format.elements[e.id];
    if (e.type === 'audio') return e;
    return usable(e, layout) ? withLayout(e, layout) : restyledText(e, layout, options);
  });
  // Only elements with no layout here are reframed from the format being edited (added since it was made).
  const derived = kept.includes(null) ? reframeElements(scene.elements, from, format.output, options) : [];
  return { ...scene, elements: kept.map((e, i) => e ?? derived[i]) };
}

/**
 * The project as it is in one of its formats: a plain project of that size, what the serialisers and
 * the compositor take. `formats` is left as it was (the serialisers do not read it).
 */
export function projectInFormat(project: Project, output: OutputSize, options: ReframeOptions = {}): Project {
  if (sameSize(output, project.output)) return project;
  const format = project.formats?.find((f) => sameSize(f.output, output));
  if (!format) throw new Error(`The project has no ${formatLabel(output)} format`);
  return {
    ...project,
    output: { width: format.output.width, height: format.output.height },
    scenes: project.scenes.map((scene) => sceneIn(scene, project.output, format, options)),
  };
}

/** Every format as its own project, the one being edited first. */
export function formatProjects(project: Project, options: ReframeOptions = {}): Project[] {
  const others = formatsOf(project).filter((f) => !f.current);
  return [project, ...others.map((f) => projectInFormat(project, f.output, options))];
}

/** Adds a format laid out by reframing the one being edited; the editor stays on the current one. */
export function addFormat(project: Project, output: OutputSize, options: ReframeOptions = {}): Project {
  if (hasFormat(project, output)) return project;
  const reframed = reframeProject({ ...project, formats: undefined }, output, options);
  return { ...project, formats: [...(project.formats ?? []), currentLayout(reframed)] };
}

/** Makes another format the one being edited: the current boxes are kept as a format, the chosen one's taken out. */
export function switchFormat(project: Project, output: OutputSize, options: ReframeOptions = {}): Project {
  if (sameSize(output, project.output)) return project;
  const target = projectInFormat(project, output, options);
  const others = (project.formats ?? []).filter((f) => !sameSize(f.output, output));
  return { ...target, formats: [...others, currentLayout(project)] };
}

/** Drops a format (never the one being edited). */
export function removeFormat(project: Project, output: OutputSize): Project {
  if (sameSize(output, project.output) || !project.formats?.some((f) => sameSize(f.output, output))) return project;
  const formats = project.formats.filter((f) => !sameSize(f.output, output));
  const { formats: _all, ...rest } = project;
  return formats.length > 0 ? { ...rest, formats } : rest;
}

/**
 * The text styles that adding or switching to `output` (or making every format) will ask the size of:
 * measure them with the rasteriser, then pass `measuredBy` of the answers (as the brand kit does).
 */
export function formatStylesToMeasure(project: Project, output?: OutputSize): TextStyle[] {
  const seen = new Map<string, TextStyle>();
  const measure = (style: TextStyle) => {
    seen.set(JSON.stringify(style), style);
    return { width: 1, height: 1 };
  };
  if (!output) formatProjects(project, { measure });
  else if (hasFormat(project, output)) projectInFormat(project, output, { measure });
  else addFormat(project, output, { measure });
  return [...seen.values()];
}
