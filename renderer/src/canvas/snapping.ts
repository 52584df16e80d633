/**
 * Snapping for canvas gestures, in output pixels. Candidate lines are collected once when a gesture
 * starts (canvas edges and centre, and the edges and centres of every other element) and sorted, so
 * each pointer move costs two binary searches, whatever the number of elements in the scene.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Guide {
  orientation: 'vertical' | 'horizontal';
  /** Position of the line in output pixels (x for vertical, y for horizontal). */
  at: number;
  /** Whether the line comes from the canvas itself rather than another element. */
  canvas: boolean;
}

export interface SnapTargets {
  xs: Float64Array;
  xFromCanvas: Uint8Array;
  ys: Float64Array;
  yFromCanvas: Uint8Array;
}

export interface SnapResult {
  x: number;
  y: number;
  guides: Guide[];
}

function sortedLines(lines: Array<[number, boolean]>): { at: Float64Array; canvas: Uint8Array } {
  lines.sort((a, b) => a[0] - b[0]);
  const at = new Float64Array(lines.length);
  const canvas = new Uint8Array(lines.length);
  lines.forEach(([value, fromCanvas], i) => {
    at[i] = value;
    canvas[i] = fromCanvas ? 1 : 0;
  });
  return { at, canvas };
}

export function collectSnapTargets(canvasSize: { width: number; height: number }, others: readonly Box[]): SnapTargets {
  const xs: Array<[number, boolean]> = [
    [0, true],
    [canvasSize.width / 2, true],
    [canvasSize.width, true],
  ];
  const ys: Array<[number, boolean]> = [
    [0, true],
    [canvasSize.height / 2, true],
    [canvasSize.height, true],
  ];
  for (const box of others) {
    xs.push([box.x, false], [box.x + box.width / 2, false], [box.x + box.width, false]);
    ys.push([box.y, false], [box.y + box.height / 2, false], [box.y + box.height, false]);
  }
  const x = sortedLines(xs);
  const y = sortedLines(ys);
  return { xs: x.at, xFromCanvas: x.canvas, ys: y.at, yFromCanvas: y.canvas };
}

/** Index of the line nearest to value, or -1 when there are none. */
function nearest(lines: Float64Array, value: number): number {
  if (lines.length === 0) return -1;
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(lines[lo - 1] - value) <= Math.abs(lines[lo] - value)) return lo - 1;
  return lo;
}

interface AxisSnap {
  delta: number;
  line: number;
  index: number;
}

/** Best snap on one axis for a box's start, centre and end; null when nothing is within threshold. */
function snapAxis(lines: Float64Array, start: number, size: number, threshold: number): AxisSnap | null {
  let best: AxisSnap | null = null;
  for (const edge of [start, start + size / 2, start + size]) {
    const index = nearest(lines, edge);
    if (index < 0) continue;
    const delta = lines[index] - edge;
    if (Math.abs(delta) <= threshold && (best === null || Math.abs(delta) < Math.abs(best.delta))) {
      best = { delta, line: lines[index], index };
    }
  }
  return best;
}

/**
 * Snaps a moving box to the nearest candidate line on each axis within `threshold` output pixels
 * (callers pass a screen distance divided by the zoom, so snapping feels the same at any zoom).
 */
export function snapBox(box: Box, targets: SnapTargets, threshold: number): SnapResult {
  const sx = snapAxis(targets.xs, box.x, box.width, threshold);
  const sy = snapAxis(targets.ys, box.y, box.height, threshold);
  const guides: Guide[] = [];
  if (sx) guides.push({ orientation: 'vertical', at: sx.line, canvas: targets.xFromCanvas[sx.index] === 1 });
  if (sy) guides.push({ orientation: 'horizontal', at: sy.line, canvas: targets.yFromCanvas[sy.index] === 1 });
  return { x: box.x + (sx?.delta ?? 0), y: box.y + (sy?.delta ?? 0), guides };
}
