import type { Scene } from '@common/composition';

/** Pure arithmetic of the timeline: where scenes sit, what a pointer position means. */

/** The audio a scene's voice plays: its URL, or a generated voiceover once it exists. */
export function voiceUrlOf(scene: Pick<Scene, 'voice'>): string | null {
  if (!scene.voice) return null;
  return scene.voice.kind === 'url' ? scene.voice.url : (scene.voice.audioUrl ?? null);
}

export interface SceneSpan {
  id: string;
  startMs: number;
  durationMs: number;
}

export function sceneSpans(scenes: ReadonlyArray<{ id: string; durationMs: number }>): SceneSpan[] {
  let start = 0;
  return scenes.map((s) => {
    const span = { id: s.id, startMs: start, durationMs: s.durationMs };
    start += s.durationMs;
    return span;
  });
}

/** The scene playing at time t and the time inside it; past the end, the last scene's end. */
export function sceneAt(spans: readonly SceneSpan[], t: number): { index: number; localMs: number } {
  if (spans.length === 0) return { index: -1, localMs: 0 };
  const clamped = Math.max(0, t);
  for (let i = 0; i < spans.length; i += 1) {
    const s = spans[i];
    if (clamped < s.startMs + s.durationMs) return { index: i, localMs: clamped - s.startMs };
  }
  const last = spans[spans.length - 1];
  return { index: spans.length - 1, localMs: last.durationMs };
}

/**
 * Where a dragged scene lands: the index it takes in the list once moved, from the pointer's x in
 * timeline pixels. Crossing another block's midpoint passes it.
 */
export function dropIndex(spans: readonly SceneSpan[], fromIndex: number, pointerMs: number): number {
  let target = 0;
  spans.forEach((s, i) => {
    if (i === fromIndex) return;
    if (pointerMs > s.startMs + s.durationMs / 2) target += 1;
  });
  return target;
}

/** New duration after dragging a block's right edge by dx pixels, snapped to steps of `stepMs`. */
export function resizedDuration(durationMs: number, dxPx: number, pxPerSecond: number, stepMs = 100): number {
  const raw = durationMs + (dxPx / pxPerSecond) * 1000;
  return Math.max(stepMs, Math.round(raw / stepMs) * stepMs);
}

/** Ruler ticks: a label every `major` seconds, chosen so labels stay at least ~70 px apart. */
export function rulerTicks(totalMs: number, pxPerSecond: number): { major: number; marks: number[] } {
  const choices = [0.5, 1, 2, 5, 10, 15, 30, 60, 120];
  const major = choices.find((c) => c * pxPerSecond >= 70) ?? 300;
  const marks: number[] = [];
  for (let s = 0; s * 1000 <= totalMs + 1e-6; s += major) marks.push(s);
  return { major, marks };
}

export function formatTime(ms: number): string {
  const total = Math.max(0, ms) / 1000;
  const m = Math.floor(total / 60);
  const s = total - m * 60;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}
