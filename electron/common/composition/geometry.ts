import type { OutputSize, SceneElement } from './document';

/**
 * THE meaning of an element's place, used by the editor canvas, the preview compositor and (through
 * placement.ts) the request-body serialisers alike:
 *
 *   - An element occupies its box: top-left corner at (x, y) pixels from the frame's top-left,
 *     `width` × `height` pixels, all in output pixels. A box may reach outside the frame; that part
 *     is cropped.
 *   - The media is stretched to fill the box exactly; `heightForAspect` gives the height that keeps a
 *     media's own aspect, which the editor uses when adding media and for proportional resizing.
 *   - Layers: higher `layer` is drawn above; equal layers stack in the scene's array order.
 *
 * The wire's scale and offset are NOT stored: each connection's placement convention turns the box
 * into them when a body is serialised (placement.ts).
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function elementBox(element: Pick<SceneElement, 'x' | 'y' | 'width' | 'height'>): Box {
  return { x: element.x, y: element.y, width: element.width, height: element.height };
}

/** The height that keeps a media of media.width × media.height undistorted at the given width. */
export function heightForAspect(width: number, media: { width: number; height: number }): number {
  if (media.width <= 0 || media.height <= 0) return width;
  return (width * media.height) / media.width;
}

/**
 * The largest box, at most `fraction` of the frame, that shows a media undistorted and centred: what
 * a newly added image, video or avatar gets by default.
 */
export function fitPlacement(media: { width: number; height: number }, output: OutputSize, fraction = 1): Box {
  const mediaAspect = media.width > 0 && media.height > 0 ? media.width / media.height : output.width / output.height;
  let width = output.width * fraction;
  let height = width / mediaAspect;
  if (height > output.height * fraction) {
    height = output.height * fraction;
    width = height * mediaAspect;
  }
  const round = (v: number): number => Math.round(v * 100) / 100;
  return {
    x: Math.round((output.width - width) / 2),
    y: Math.round((output.height - height) / 2),
    width: round(width),
    height: round(height),
  };
}

/** Elements in drawing order, bottom first: by layer, then by their order in the scene. */
export function stackingOrder<T extends Pick<SceneElement, 'layer'>>(elements: readonly T[]): T[] {
  return elements
    .map((element, index) => ({ element, index }))
    .sort((a, b) => a.element.layer - b.element.layer || a.index - b.index)
    .map((entry) => entry.element);
}

/** Whether an element is drawn (audio elements carry sound only). */
export function isVisual(element: Pick<SceneElement, 'type'>): boolean {
  return element.type !== 'audio';
}
