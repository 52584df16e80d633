import type { FaceFrame, Person } from '../../common/api';
import type { FaceGeometry, Point } from '../catalogue/draw-face';
import type { KnownMedia } from '../catalogue/catalogue';

export type Box = [number, number, number, number];

const pointsStr = (pts: Point[]) =>
  pts
    .slice(0, 4)
    .map(([x, y]) => `${x},${y}`)
    .join(':');

/** Region grown by `ratio` of its size on each side, clamped to the picture; returns [x1, y1, x2, y2]. */
export function expandRegion(region: Box, ratio: number, width: number, height: number): Box {
  const [x, y, w, h] = region;
  const dx = Math.round(w * ratio);
  const dy = Math.round(h * ratio);
  return [Math.max(0, x - dx), Math.max(0, y - dy), Math.min(width, x + w + dx), Math.min(height, y + h + dy)];
}

/** Frames to report for a known file: one for a picture, `count` spread over a video. */
export function sampleTimes(media: KnownMedia, count: number): (number | null)[] {
  if (media.kind === 'image') return [null];
  return Array.from({ length: count }, (_, i) => Math.round(((i + 0.5) * media.seconds * 1000) / count) / 1000);
}

export function pickFaces(faces: FaceGeometry[], single: boolean): FaceGeometry[] {
  if (!single || faces.length <= 1) return faces;
  return [faces.reduce((a, b) => (b.region[2] * b.region[3] > a.region[2] * a.region[3] ? b : a))];
}

/** One frame of a face detection answer; `crops` are the crop boxes and URLs when asked for. */
export function faceFrame(faces: FaceGeometry[], time: number | null, crops?: { box: Box; url: string }[]): FaceFrame {
  return {
    landmarks: faces.map((f) => f.landmarks.map(([x, y]) => [x, y] as [number, number])),
    landmarks_str: faces.map((f) => pointsStr(f.landmarks)),
    region: faces.map((f) => [...f.region]),
    ...(time === null ? {} : { removed: [] }),
    frame_time: time,
    crop_region: crops ? crops.map((c) => [...c.box]) : null,
    crop_landmarks: crops
      ? faces.map((f, i) => pointsStr(f.landmarks.map(([x, y]) => [x - crops[i].box[0], y - crops[i].box[1]] as Point)))
      : null,
    face_urls: crops ? crops.map((c) => c.url) : null,
  };
}

export interface Sighting {
  frameIdx: number;
  timestamp: number;
  face: FaceGeometry;
}

/** Merges sightings of the same identity into persons, numbered left to right by x. */
export function mergePersons(sightings: Sighting[], faceUrl: (first: Sighting) => Promise<string>): Promise<Person[]> {
  const byIdentity = new Map<string, Sighting[]>();
  for (const s of sightings) byIdentity.set(s.face.identity, [...(byIdentity.get(s.face.identity) ?? []), s]);
  const groups = [...byIdentity.values()].sort((a, b) => a[0].face.region[0] - b[0].face.region[0]);
  const box = (f: FaceGeometry): Box => [
    f.region[0],
    f.region[1],
    f.region[0] + f.region[2],
    f.region[1] + f.region[3],
  ];
  return Promise.all(
    groups.map(async (g, index) => ({
      person_id: `person_${index}`,
      index,
      face_url: await faceUrl(g[0]),
      bbox: box(g[0].face),
      confidence: 0.99,
      appearances: g.map((s) => ({ timestamp: s.timestamp, frame_idx: s.frameIdx, bbox: box(s.face) })),
      first_seen: Math.min(...g.map((s) => s.timestamp)),
      last_seen: Math.max(...g.map((s) => s.timestamp)),
    })),
  );
}
