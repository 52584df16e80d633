import type { TalkingAvatarBody } from '../api/video';
import type { Box } from './geometry';
import { fromWire, placementLabel, type PlacementConvention } from './placement';

/**
 * "Check placement": one small talking avatar whose marker (a magenta picture of known size) is placed
 * with wire values that each convention reads differently. Where the marker shows in the result says
 * which convention the service uses. Pure: the service (electron/services/placement) sends, downloads
 * and reads the frame.
 */
export const PROBE_FRAME = { width: 640, height: 360 } as const;
export const PROBE_MARKER = { width: 160, height: 160, colour: 'magenta' } as const;
/** Under the four conventions this gives four boxes that hardly overlap (no two by more than 15 % of their union). */
export const PROBE_MARKER_WIRE = { scale_x: 0.25, scale_y: 0.25, offset_x: 320, offset_y: 180 } as const;
/** The avatar the request must contain: small, in the top-left corner, away from every marker box. */
export const PROBE_AVATAR_WIRE = { scale_x: 0.05, scale_y: 0.05, offset_x: 40, offset_y: 40 } as const;
export const PROBE_SPEECH_SECONDS = 1.5;

export const ALL_CONVENTIONS: readonly PlacementConvention[] = [
  { anchor: 'centre', scale: 'frame' },
  { anchor: 'centre', scale: 'element' },
  { anchor: 'top-left', scale: 'frame' },
  { anchor: 'top-left', scale: 'element' },
];

export function probeBody(media: { markerUrl: string; audioUrl: string; avatarId: string }): TalkingAvatarBody {
  return {
    width: PROBE_FRAME.width,
    height: PROBE_FRAME.height,
    avatar_from: 2,
    elements: [
      { type: 'avatar', avatar_id: media.avatarId, ...PROBE_AVATAR_WIRE },
      { type: 'image', url: media.markerUrl, ...PROBE_MARKER_WIRE },
      { type: 'audio', url: media.audioUrl },
    ],
  };
}

/** Where the marker lands under each convention, in output pixels. */
export function probePredictions(): { convention: PlacementConvention; box: Box }[] {
  return ALL_CONVENTIONS.map((convention) => ({
    convention,
    box: fromWire(PROBE_MARKER_WIRE, PROBE_FRAME, convention, PROBE_MARKER) as Box,
  }));
}

/** Bounding box of the marker's colour in one rgb24 frame, or null when too little of it shows. */
export function findMarker(rgb: Uint8Array, width: number, height: number): Box | null {
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  let count = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      // Magenta survives video compression as strong red and blue with little green.
      if (rgb[i] > 170 && rgb[i + 1] < 100 && rgb[i + 2] > 170) {
        count += 1;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  if (count < 64) return null;
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

export function overlap(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = w * h;
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

export type ProbeVerdict =
  | { proved: true; convention: PlacementConvention; found: Box; match: number; message: string }
  | { proved: false; found: Box | null; message: string };

/** The convention whose predicted box the marker fills (at least 80 % overlap), or a plain "could not tell". */
export function judgeProbe(found: Box | null): ProbeVerdict {
  if (!found)
    return {
      proved: false,
      found,
      message:
        'The marker was not found in the result, so the placement could not be told. The service may have left the picture out or changed its colours.',
    };
  const ranked = probePredictions()
    .map((p) => ({ ...p, match: overlap(p.box, found) }))
    .sort((a, b) => b.match - a.match);
  const best = ranked[0];
  const where = `${found.width}×${found.height} px at (${found.x}, ${found.y})`;
  if (best.match < 0.8) {
    return {
      proved: false,
      found,
      message: `The marker showed ${where}, which matches none of the four conventions (best ${Math.round(best.match * 100)} %), so the placement could not be told.`,
    };
  }
  return {
    proved: true,
    convention: best.convention,
    found,
    match: best.match,
    message: `The marker showed ${where}: the service places by ${placementLabel(best.convention)} (${Math.round(best.match * 100)} % match).`,
  };
}
