/**
 * Draws the sandbox's cartoon presenters (no real people) as raw RGB frames. Because we draw them,
 * we know exactly where every face and landmark is, which is what lets face detection answer
 * truthfully for the sandbox's own media.
 */
export type Rgb = readonly [number, number, number];

export interface FaceSpec {
  /** Stable identity so analyze-frames can merge the same person across frames. */
  identity: string;
  cx: number;
  cy: number;
  r: number;
  skin: Rgb;
  hair: Rgb;
  shirt: Rgb;
  longHair: boolean;
}

export type Point = [number, number];

export interface FaceGeometry {
  identity: string;
  /** [x, y, width, height] */
  region: [number, number, number, number];
  /** left eye, right eye, nose tip, mouth centre, left mouth corner, right mouth corner */
  landmarks: [Point, Point, Point, Point, Point, Point];
}

const round = (v: number) => Math.round(v);

export function faceGeometry(f: FaceSpec): FaceGeometry {
  const p = (dx: number, dy: number): Point => [round(f.cx + dx * f.r), round(f.cy + dy * f.r)];
  return {
    identity: f.identity,
    region: [round(f.cx - f.r), round(f.cy - f.r), round(2 * f.r), round(2 * f.r)],
    landmarks: [p(-0.35, -0.2), p(0.35, -0.2), p(0, 0.12), p(0, 0.45), p(-0.3, 0.45), p(0.3, 0.45)],
  };
}

/** Scales a geometry drawn at one size to the same picture shown at another size. */
export function scaleGeometry(g: FaceGeometry, sx: number, sy: number): FaceGeometry {
  const pt = ([x, y]: Point): Point => [round(x * sx), round(y * sy)];
  return {
    identity: g.identity,
    region: [round(g.region[0] * sx), round(g.region[1] * sy), round(g.region[2] * sx), round(g.region[3] * sy)],
    landmarks: g.landmarks.map(pt) as FaceGeometry['landmarks'],
  };
}

const inEllipse = (x: number, y: number, cx: number, cy: number, rx: number, ry: number) =>
  ((x - cx) * (x - cx)) / (rx * rx) + ((y - cy) * (y - cy)) / (ry * ry) <= 1;

/** One frame: background, then each presenter (hair, shoulders, face, eyes, nose, mouth). */
export function paintFrame(
  width: number,
  height: number,
  background: Rgb,
  faces: readonly FaceSpec[],
  mouthOpen: boolean,
): Buffer {
  const buf = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) buf.set(background, i * 3);
  const put = (x: number, y: number, c: Rgb) => {
    if (x >= 0 && y >= 0 && x < width && y < height) buf.set(c, (y * width + x) * 3);
  };
  for (const f of faces) {
    const r = f.r;
    const x0 = Math.max(0, Math.floor(f.cx - 1.6 * r));
    const x1 = Math.min(width - 1, Math.ceil(f.cx + 1.6 * r));
    const y0 = Math.max(0, Math.floor(f.cy - 1.3 * r));
    for (let y = y0; y < height; y++) {
      for (let x = x0; x <= x1; x++) {
        const dx = (x - f.cx) / r;
        const dy = (y - f.cy) / r;
        let c: Rgb | null = null;
        if (f.longHair && inEllipse(dx, dy, 0, 0.2, 1.25, 1.35)) c = f.hair;
        if (dy > 1.05 && Math.abs(dx) < 0.9 + (dy - 1.05) * 0.8) c = f.shirt;
        if (Math.abs(dx) < 0.25 && dy > 0.85 && dy < 1.15) c = f.skin;
        if (inEllipse(dx, dy, 0, 0, 1, 1)) {
          c = f.skin;
          if (dy < -0.55 && inEllipse(dx, dy, 0, -0.35, 1.02, 0.7)) c = f.hair;
          if (inEllipse(dx, dy, -0.35, -0.2, 0.13, 0.13) || inEllipse(dx, dy, 0.35, -0.2, 0.13, 0.13))
            c = [255, 255, 255];
          if (inEllipse(dx, dy, -0.35, -0.2, 0.06, 0.07) || inEllipse(dx, dy, 0.35, -0.2, 0.06, 0.07)) c = [30, 30, 40];
          if (inEllipse(dx, dy, 0, 0.06, 0.07, 0.07)) c = darker(f.skin, 0.8);
          if (inEllipse(dx, dy, 0, 0.45, 0.3, mouthOpen ? 0.14 : 0.04)) c = mouthOpen ? [120, 20, 30] : [150, 40, 50];
        }
        if (c) put(x, y, c);
      }
    }
  }
  return buf;
}

function darker(c: Rgb, k: number): Rgb {
  return [round(c[0] * k), round(c[1] * k), round(c[2] * k)];
}
