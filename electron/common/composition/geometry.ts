import type { OutputSize, SceneElement } from './document';

/**
 * THE meaning of scale and offset, decided once and used by the editor canvas, the request-body
 * serialisers and the ffmpeg compositor alike:
 *
 *   - An element occupies a box of  scaleX × output.width  by  scaleY × output.height  pixels.
 *     Scale is relative to the OUTPUT frame, not to the media's own size, which is why the service
 *     can bound it to 0..1 (at most the whole frame) whatever the media's resolution.
 *   - The box's top-left corner sits at (offsetX, offsetY) pixels from the frame's top-left corner
 *     ("pixels from the top-left of the video area" in the interface). Offsets may push part of the
 *     box outside the frame; that part is cropped.
 *   - The media is stretched to fill the box exactly. scaleX and scaleY are independent, so the
 *     aspect ratio is the user's choice; `scaleYForAspect` gives the scaleY that keeps a media's own
 *     aspect, which the editor uses when adding media and for proportional resizing.
 *   - Layers: higher `layer` is drawn above; equal layers stack in the scene's array order.
 *
 * Serialisers copy scale and offset through unchanged (scale_x, scale_y, offset_x, offset_y), so what
 * the preview shows is what the request describes.
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function elementBox(element: Pick<SceneElement, 'offsetX' | 'offsetY' | 'scaleX' | 'scaleY'>, output: OutputSize): Box {
  return {
    x: element.offsetX,
    y: element.offsetY,
    width: element.scaleX * output.width,
    height: element.scaleY * output.height,
  };
}

/** The inverse of elementBox: scale/offset values for a box drawn on the canvas (in output pixels). */
export function boxToPlacement(box: Box, output: OutputSize): Pick<SceneElement, 'offsetX' | 'offsetY' | 'scaleX' | 'scaleY'> {
  return {
    offsetX: box.x,
    offsetY: box.y,
    scaleX: box.width / output.width,
    scaleY: box.height / output.height,
  };
}

/** scaleY that keeps a media of mediaWidth × mediaHeight undistorted at the given scaleX. */
export function scaleYForAspect(scaleX: number, media: { width: number; height: number }, output: OutputSize): number {
  if (media.width <= 0 || media.height <= 0) return scaleX;
  return (scaleX * output.width * media.height) / media.width / output.height;
}

/**
 * The largest placement, at most the whole frame, that shows a media undistorted and centred: what
 * a newly added image, video or avatar gets by default.
 */
export function fitPlacement(media: { width: number; height: number }, output: OutputSize, fraction = 1): Pick<SceneElement, 'offsetX' | 'offsetY' | 'scaleX' | 'scaleY'> {
  const mediaAspect = media.width > 0 && media.height > 0 ? media.width / media.height : output.width / output.height;
  let width = output.width * fraction;
  let height = width / mediaAspect;
  if (height > output.height * fraction) {
    height = output.height * fraction;
    width = height * mediaAspect;
  }
  return boxToPlacement(
    { x: Math.round((output.width - width) / 2), y: Math.round((output.height - height) / 2), width, height },
    output,
  );
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
