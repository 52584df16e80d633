import { bleedOf } from '../text/text-layout';
import type { MediaSize, OutputSize, Project, SceneElement } from './document';
import { stackingOrder, type Box } from './geometry';
import type { TextStyle } from './text-style';

/**
 * Reframing: the same scene laid out for another frame size (16:9 → 9:16, 1:1, 4:5 or any), keeping
 * every element's proportions. Scaling each box separately in X and Y (what changing the output did
 * before) made titles tall and narrow and stretched the avatar; here no box changes its aspect:
 *
 *   - A full-frame backdrop picture or video covers the new frame (or, asked, fits inside it); a box
 *     may run past the frame, and the part outside is cut.
 *   - Other pictures, videos and avatars fit inside the place their box had (the old box mapped onto
 *     the new frame), held at the side or corner they were near, so elements that did not overlap
 *     still do not. Avatars sit on the bottom unless they were in the top third: a presenter stands.
 *   - Text keeps its size relative to the frame's shorter side and wraps again at a width that fits
 *     its place: as wide as its place, or as its lines need to keep to their place's height, never
 *     narrower than 40 % of the safe area (unless it was) nor wider than it; then it stays inside the
 *     safe area, shrinking only when even wrapped it cannot fit.
 *
 * Wrapping text changes its natural size, which only the font can tell (asynchronous): a caller
 * measures `reframeStylesToMeasure` first and passes `measuredBy` of the answers, as the brand kit
 * does. Without a measure the size is estimated from the old one (lines grow as the width shrinks).
 */
/** A text style's natural size, as the font lays it out (brand-kit's MeasureText; not imported, which would close a circle). */
type MeasureText = (style: TextStyle) => MediaSize;

export interface ReframeOptions {
  /** How a full-frame backdrop fills the new frame: cover (cropped; the default) or contain (bars). */
  backdrop?: 'cover' | 'contain';
  measure?: MeasureText;
}

/** The share of each side a title keeps clear of (the canvas's dashed safe area: 90 %). */
export const SAFE_AREA = 0.9;
/** Within this share of the frame on every side, a box counts as full-frame. */
const FULL_FRAME_SLACK = 0.02;
/** Re-wrapped text is never narrower than this share of the safe area (unless it was already). */
const MIN_TEXT_SHARE = 0.4;

export function safeAreaOf(output: OutputSize, fraction = SAFE_AREA): Box {
  const width = output.width * fraction;
  const height = output.height * fraction;
  return { x: (output.width - width) / 2, y: (output.height - height) / 2, width, height };
}

/** The project at another output size, every scene laid out again by `reframeElements`. */
export function reframeProject(project: Project, to: OutputSize, options: ReframeOptions = {}): Project {
  const from = project.output;
  if (from.width === to.width && from.height === to.height) return project;
  if (sameAspect(from, to)) return scaledProject(project, to);
  return {
    ...project,
    output: { width: to.width, height: to.height },
    scenes: project.scenes.map((scene) => ({ ...scene, elements: reframeElements(scene.elements, from, to, options) })),
  };
}

/** Frames of one shape (1920×1080 and 1280×720): everything scales evenly, exactly as it was placed. */
function sameAspect(a: OutputSize, b: OutputSize): boolean {
  return Math.abs((a.width / a.height) * (b.height / b.width) - 1) < 0.001;
}

function scaledProject(project: Project, to: OutputSize): Project {
  const k = to.width / project.output.width;
  return {
    ...project,
    output: { width: to.width, height: to.height },
    scenes: project.scenes.map((scene) => ({
      ...scene,
      elements: scene.elements.map((e) =>
        e.type === 'audio'
          ? e
          : { ...e, ...rounded({ x: e.x * k, y: e.y * k, width: e.width * k, height: e.height * k }) },
      ),
    })),
  };
}

/** The text styles reframing to `to` will ask the size of (measure them, then reframe with `measuredBy`). */
export function reframeStylesToMeasure(project: Project, to: OutputSize): TextStyle[] {
  const seen = new Map<string, TextStyle>();
  reframeProject(project, to, {
    measure: (style) => {
      seen.set(JSON.stringify(style), style);
      return { width: 1, height: 1 };
    },
  });
  return [...seen.values()];
}

export function reframeElements(
  elements: readonly SceneElement[],
  from: OutputSize,
  to: OutputSize,
  options: ReframeOptions = {},
): SceneElement[] {
  const bottom = stackingOrder(elements.filter((e) => e.type === 'image' || e.type === 'video'))[0];
  return elements.map((e) => {
    if (e.type === 'audio' || e.width <= 0 || e.height <= 0) return e;
    if (e.type === 'text') return reframeText(e, from, to, options.measure);
    const box = isBackdrop(e, bottom, from)
      ? fill(e, to, options.backdrop ?? 'cover')
      : anchoredFit(e, mapped(e, from, to), anchorOf(e, from));
    return { ...e, ...rounded(box) };
  });
}

/** A full-frame picture or video that is the scene's backdrop: so marked, or the bottom one unmarked. */
function isBackdrop(e: SceneElement, bottom: SceneElement | undefined, frame: OutputSize): boolean {
  if (e.type !== 'image' && e.type !== 'video') return false;
  if (!coversFrame(e, frame)) return false;
  return e.role === 'backdrop' || (e.role === undefined && e === bottom);
}

export function coversFrame(box: Box, frame: OutputSize): boolean {
  const sx = frame.width * FULL_FRAME_SLACK;
  const sy = frame.height * FULL_FRAME_SLACK;
  return box.x <= sx && box.y <= sy && box.x + box.width >= frame.width - sx && box.y + box.height >= frame.height - sy;
}

/** The box scaled to cover (or fit) the whole frame, centred. */
function fill(box: Box, to: OutputSize, how: 'cover' | 'contain'): Box {
  const pick = how === 'cover' ? Math.max : Math.min;
  const k = pick(to.width / box.width, to.height / box.height);
  const width = box.width * k;
  const height = box.height * k;
  return { x: (to.width - width) / 2, y: (to.height - height) / 2, width, height };
}

/** The place a box had, mapped onto the new frame side by side (its aspect is not kept: a region, not a box). */
function mapped(box: Box, from: OutputSize, to: OutputSize): Box {
  const fx = to.width / from.width;
  const fy = to.height / from.height;
  return { x: box.x * fx, y: box.y * fy, width: box.width * fx, height: box.height * fy };
}

type Side = 'start' | 'centre' | 'end';
interface Anchor {
  h: Side;
  v: Side;
}

/** Which side or corner an element is held at: the third of the frame its centre lies in. */
function anchorOf(e: SceneElement, frame: OutputSize): Anchor {
  const third = (centre: number, side: number): Side =>
    centre < side / 3 ? 'start' : centre > (side * 2) / 3 ? 'end' : 'centre';
  const h = third(e.x + e.width / 2, frame.width);
  const v = third(e.y + e.height / 2, frame.height);
  // A presenter stands on the bottom of their place unless they were up in the top third.
  return { h, v: e.type === 'avatar' && v !== 'start' ? 'end' : v };
}

/** The largest box of the element's aspect inside `region`, held at the anchor's side. */
function anchoredFit(box: Box, region: Box, anchor: Anchor): Box {
  const aspect = box.width / box.height;
  const width = Math.min(region.width, region.height * aspect);
  const height = width / aspect;
  return place({ width, height }, region, anchor);
}

function place(size: { width: number; height: number }, region: Box, anchor: Anchor): Box {
  const at = (side: Side, start: number, room: number, length: number): number =>
    side === 'start' ? start : side === 'end' ? start + room - length : start + (room - length) / 2;
  return {
    x: at(anchor.h, region.x, region.width, size.width),
    y: at(anchor.v, region.y, region.height, size.height),
    width: size.width,
    height: size.height,
  };
}

/**
 * A text element in the new frame: its letters scaled with the frame's shorter side, its lines wrapped
 * again to fit its place, held at its side, kept inside the safe area.
 */
function reframeText(e: SceneElement, from: OutputSize, to: OutputSize, measure?: MeasureText): SceneElement {
  const natural = e.mediaSize ?? { width: e.width, height: e.height };
  const scale = (e.width / natural.width) * (Math.min(to.width, to.height) / Math.min(from.width, from.height));
  const region = mapped(e, from, to);
  const safe = safeAreaOf(to);
  // Wide enough that the lines, re-wrapped, fit the height of their place (their area stays about the
  // same), so a title does not grow down over the text beneath it; within the safe area's width.
  const fitsHeight = (natural.width * natural.height * scale * scale) / region.height;
  const floor = Math.min(natural.width * scale, safe.width * MIN_TEXT_SHARE);
  const target = Math.min(safe.width, Math.max(region.width, fitsHeight, floor));
  let style = e.text;
  let size = natural;
  if (style && natural.width * scale > target + 0.5) {
    const inset = bleedOf(style) + (style.box?.padding ?? 0);
    const wrapWidth = round2(Math.min(8000, Math.max(8, target / scale - inset * 2)));
    style = { ...style, wrapWidth };
    size = measure ? measure(style) : estimateWrapped(natural, e.text!, wrapWidth, inset);
  }
  // Even wrapped, a long word or many lines may not fit: then the text shrinks, never the safe area.
  const k = Math.min(scale, safe.width / size.width, safe.height / size.height);
  const box = place({ width: size.width * k, height: size.height * k }, region, anchorOf(e, from));
  const inside = {
    ...box,
    x: clamp(box.x, safe.x, safe.x + safe.width - box.width),
    y: clamp(box.y, safe.y, safe.y + safe.height - box.height),
  };
  const next: SceneElement = { ...e, ...rounded(inside), mediaSize: size };
  return style ? { ...next, text: style } : next;
}

/** The natural size of text wrapped narrower, guessed from its old size: as many more lines as the width shrank. */
function estimateWrapped(
  natural: { width: number; height: number },
  style: TextStyle,
  wrapWidth: number,
  inset: number,
): { width: number; height: number } {
  const oldWidth = Math.max(1, natural.width - inset * 2);
  const lines = Math.max(1, Math.round((natural.height - inset * 2) / (style.fontSize * style.lineHeight)));
  const more = Math.ceil((lines * oldWidth) / wrapWidth) - lines;
  const height = natural.height + Math.max(0, more) * style.fontSize * style.lineHeight;
  return { width: Math.ceil(wrapWidth + inset * 2), height: Math.ceil(height) };
}

// Not project-ops' round2: that module changes the output through this one, so this one stays a leaf.
function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function clamp(value: number, low: number, high: number): number {
  return high < low ? (low + high) / 2 : Math.min(high, Math.max(low, value));
}

/** Whole hundredths of a pixel: far inside the 1 % an aspect may drift. */
function rounded(box: Box): Box {
  return { x: round2(box.x), y: round2(box.y), width: round2(box.width), height: round2(box.height) };
}
