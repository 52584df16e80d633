/** Pure arithmetic of the caption track's gestures (the document clamps the result to neighbours). */
export interface CueRef {
  sceneId: string;
  index: number;
}

/** Step the drag snaps to, in milliseconds. */
const STEP_MS = 10;

/** A cue's times after dragging its body (`move`) or one edge by `dMs`; the length never falls below a tenth of a second. */
export function cueDrag(
  mode: 'move' | 'start' | 'end',
  startMs: number,
  endMs: number,
  dMs: number,
): { startMs: number; endMs: number } {
  const d = Math.round(dMs / STEP_MS) * STEP_MS;
  if (mode === 'move') {
    const shift = Math.max(-startMs, d);
    return { startMs: startMs + shift, endMs: endMs + shift };
  }
  if (mode === 'start') return { startMs: Math.max(0, Math.min(endMs - 100, startMs + d)), endMs };
  return { startMs, endMs: Math.max(startMs + 100, endMs + d) };
}

/** "1.25" seconds from milliseconds, and back (null for what is not a time). */
export function secondsText(ms: number): string {
  return (ms / 1000).toFixed(2);
}
export function parseSeconds(text: string): number | null {
  const value = Number(text.trim().replace(',', '.'));
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : null;
}
