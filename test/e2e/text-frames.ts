// Pixel measurements for the text journey: where a colour lies in a picture (a canvas screenshot, a
// preview frame), in the picture's own pixels. Pictures are decoded with ffmpeg to raw RGB.
import { spawnSync } from 'node:child_process';

export interface Picture {
  width: number;
  height: number;
  rgb: Buffer;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Decodes a picture or one frame of a video (at `atSeconds`) to RGB. */
export function decode(path: string, atSeconds?: number): Picture {
  const probe = spawnSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', path],
    { encoding: 'utf8' },
  );
  const [width, height] = probe.stdout.trim().split(',').map(Number);
  const seek = atSeconds === undefined ? [] : ['-ss', String(atSeconds)];
  const out = spawnSync(
    'ffmpeg',
    ['-v', 'error', ...seek, '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (out.status !== 0 || out.stdout.length !== width * height * 3)
    throw new Error(`could not decode ${path}: ${out.stderr.toString()}`);
  return { width, height, rgb: out.stdout };
}

/** Saves one frame of a video (at `atSeconds`) as a PNG at `png`, to be kept and looked at, and decodes it. */
export function keepFrame(video: string, atSeconds: number, png: string): Picture {
  const run = spawnSync('ffmpeg', ['-v', 'error', '-y', '-ss', String(atSeconds), '-i', video, '-frames:v', '1', png]);
  if (run.status !== 0) throw new Error(`could not take a frame of ${video}: ${run.stderr.toString()}`);
  return decode(png);
}

/** The box of pixels within `distance` (RGB, Euclidean) of `colour` inside `within`; null when none. */
export function colourBox(
  picture: Picture,
  colour: [number, number, number],
  distance: number,
  within?: Box,
): Box | null {
  const area = within ?? { left: 0, top: 0, right: picture.width - 1, bottom: picture.height - 1 };
  let box: Box | null = null;
  for (let y = Math.max(0, area.top); y <= Math.min(picture.height - 1, area.bottom); y++) {
    for (let x = Math.max(0, area.left); x <= Math.min(picture.width - 1, area.right); x++) {
      const i = (y * picture.width + x) * 3;
      const d = Math.hypot(picture.rgb[i] - colour[0], picture.rgb[i + 1] - colour[1], picture.rgb[i + 2] - colour[2]);
      if (d > distance) continue;
      if (!box) box = { left: x, top: y, right: x, bottom: y };
      else {
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
    }
  }
  return box;
}

/** A box in a picture drawn at `scale` with the frame's origin at `origin`, in output pixels. */
export function toOutput(box: Box, scale: number, origin = { x: 0, y: 0 }): Box {
  const f = (v: number, o: number): number => (v - o) / scale;
  return {
    left: f(box.left, origin.x),
    top: f(box.top, origin.y),
    right: f(box.right + 1, origin.x),
    bottom: f(box.bottom + 1, origin.y),
  };
}

/** The largest distance between matching edges of two boxes. */
export function edgeGap(a: Box, b: Box): number {
  return Math.max(
    Math.abs(a.left - b.left),
    Math.abs(a.top - b.top),
    Math.abs(a.right - b.right),
    Math.abs(a.bottom - b.bottom),
  );
}

/** '#e63946' → [230, 57, 70]. */
export function hex(colour: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
}

export interface OutputBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where to look for an element in a picture drawn at `scale` with the frame's origin at `origin`: its box and 20 output pixels round it. */
export function around(b: OutputBox, scale = 1, origin = { x: 0, y: 0 }): Box {
  return {
    left: Math.floor(origin.x + (b.x - 20) * scale),
    top: Math.floor(origin.y + (b.y - 20) * scale),
    right: Math.ceil(origin.x + (b.x + b.w + 20) * scale),
    bottom: Math.ceil(origin.y + (b.y + b.h + 20) * scale),
  };
}
