import { z } from 'zod';
import type { MediaSize, OutputSize } from './document';
import type { Box } from './geometry';

/**
 * How a service reads an element's offset and scale: a property of the connection, not of the project.
 *
 *   anchor 'centre':   offset_x/offset_y are the box's centre, in pixels from the frame's top-left
 *                      (what every example body in the service's docs and its official demo assume).
 *   anchor 'top-left': offset_x/offset_y are the box's top-left corner (what the interface text says).
 *   scale 'frame':     scale_x × frame width by scale_y × frame height pixels.
 *   scale 'element':   scale_x × the media's own width by scale_y × its own height.
 *
 * The document stores boxes (geometry.ts); `toWire` and `fromWire` are the one place where a box
 * becomes wire values and back: the serialisers use the first, the sandbox the second.
 */
export const PlacementAnchor = z.enum(['centre', 'top-left']);
export type PlacementAnchor = z.infer<typeof PlacementAnchor>;
export const PlacementScale = z.enum(['frame', 'element']);
export type PlacementScale = z.infer<typeof PlacementScale>;

export const PlacementConvention = z.object({ anchor: PlacementAnchor, scale: PlacementScale });
export type PlacementConvention = z.infer<typeof PlacementConvention>;

/** The service's own examples place by the centre, at a scale of the frame. */
export const DEFAULT_PLACEMENT: PlacementConvention = Object.freeze({ anchor: 'centre', scale: 'frame' });

export interface WirePlacement {
  offset_x: number;
  offset_y: number;
  scale_x: number;
  scale_y: number;
}

export function placementLabel(convention: PlacementConvention): string {
  return `${convention.anchor === 'centre' ? 'offset of the centre' : 'offset of the top-left corner'}, scale of the ${convention.scale === 'frame' ? 'frame' : "element's own size"}`;
}

/** What a scale of 1 measures, or null when the convention needs a media size that is not known. */
export function scaleBase(
  convention: PlacementConvention,
  output: OutputSize,
  media: MediaSize | undefined,
): MediaSize | null {
  if (convention.scale === 'frame') return output;
  return media && media.width > 0 && media.height > 0 ? media : null;
}

/** A box in output pixels → the wire's offset and scale; null when the scale base is unknown. */
export function toWire(
  box: Box,
  output: OutputSize,
  convention: PlacementConvention,
  media?: MediaSize,
): WirePlacement | null {
  const base = scaleBase(convention, output, media);
  if (!base) return null;
  const centre = convention.anchor === 'centre';
  return {
    scale_x: round(box.width / base.width, 10000),
    scale_y: round(box.height / base.height, 10000),
    offset_x: round(centre ? box.x + box.width / 2 : box.x, 100),
    offset_y: round(centre ? box.y + box.height / 2 : box.y, 100),
  };
}

/**
 * Wire values → the box they describe (the sandbox's reading). Missing values read as the interface
 * implies: offset 0, scale 1. Null when the convention needs a media size that is not known.
 */
export function fromWire(
  wire: Partial<WirePlacement>,
  output: OutputSize,
  convention: PlacementConvention,
  media?: MediaSize,
): Box | null {
  const base = scaleBase(convention, output, media);
  if (!base) return null;
  const width = (wire.scale_x ?? 1) * base.width;
  const height = (wire.scale_y ?? 1) * base.height;
  const centre = convention.anchor === 'centre';
  const x = wire.offset_x ?? 0;
  const y = wire.offset_y ?? 0;
  return { x: centre ? x - width / 2 : x, y: centre ? y - height / 2 : y, width, height };
}

function round(value: number, k: number): number {
  return Math.round(value * k) / k;
}
