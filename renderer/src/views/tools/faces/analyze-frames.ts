import type { Person } from '@common/api/faces';

/** One frame to analyse: a link, or a still the host took from a local video (uploaded when analysed). */
export interface FrameRow {
  source: string;
  /** Seconds; blank rows get the service's default (their position: 0, 1, 2 …) only when every row is blank. */
  time: number | null;
  /** What a still taken from a local video shows. */
  picture?: string;
}

/** "0, 1.5, 3" as seconds, or a message naming the entry that is not a time. */
export function parseTimes(text: string): number[] | string {
  const parts = text.split(/[,\s]+/).filter(Boolean);
  if (parts.length === 0) return 'give the times to take frames at, in seconds (for example 0, 1.5, 3)';
  const times: number[] = [];
  for (const part of parts) {
    const value = Number(part);
    if (!Number.isFinite(value) || value < 0) return `"${part}" is not a time in seconds`;
    times.push(value);
  }
  return times;
}

/** The timestamps to send: all or none (the service wants one per frame), or a message saying which row lacks one. */
export function timestampsOf(rows: readonly FrameRow[]): number[] | undefined | string {
  const missing = rows.flatMap((row, i) => (row.time === null ? [i + 1] : []));
  if (missing.length === rows.length) return undefined;
  if (missing.length > 0) return `give a time to frame ${missing.join(', ')} too, or to none of them`;
  return rows.map((row) => row.time as number);
}

/** Where each appearance sits on a timeline spanning every frame's time, as a fraction 0..1. */
export function timelineMarks(
  person: Person,
  span: { start: number; end: number },
): Array<{ at: number; timestamp: number; frame: number }> {
  const length = span.end - span.start;
  return person.appearances.map((a) => ({
    at: length > 0 ? (a.timestamp - span.start) / length : 0.5,
    timestamp: a.timestamp,
    frame: a.frame_idx,
  }));
}

/** The time range the frames cover (the service's default times when none were given). */
export function spanOf(times: readonly number[] | undefined, frameCount: number): { start: number; end: number } {
  const all = times ?? Array.from({ length: frameCount }, (_, i) => i);
  return { start: Math.min(...all, 0), end: Math.max(...all, 0) };
}
