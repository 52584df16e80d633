import { describe, expect, it } from 'vitest';
import type { Person } from '@common/api/faces';
import { parseTimes, spanOf, timelineMarks, timestampsOf } from '@/views/tools/faces/analyze-frames';

const person = (timestamps: number[]): Person => ({
  person_id: 'person_0',
  index: 0,
  face_url: 'https://x/f.jpg',
  bbox: [0, 0, 10, 10],
  confidence: 0.9,
  appearances: timestamps.map((timestamp, frame_idx) => ({ timestamp, frame_idx, bbox: [0, 0, 10, 10] })),
  first_seen: timestamps[0] ?? 0,
  last_seen: timestamps.at(-1) ?? 0,
});

describe('analyze frames helpers', () => {
  it('reads times in seconds and names the entry that is not one', () => {
    expect(parseTimes('0, 1.5 3')).toEqual([0, 1.5, 3]);
    expect(parseTimes('0, soon')).toBe('"soon" is not a time in seconds');
    expect(parseTimes('-1')).toBe('"-1" is not a time in seconds');
    expect(parseTimes(' ')).toMatch(/give the times/);
  });

  it('sends one timestamp per frame or none, and names the frames that lack one', () => {
    expect(
      timestampsOf([
        { source: 'a', time: null },
        { source: 'b', time: null },
      ]),
    ).toBeUndefined();
    expect(
      timestampsOf([
        { source: 'a', time: 0 },
        { source: 'b', time: 2 },
      ]),
    ).toEqual([0, 2]);
    expect(
      timestampsOf([
        { source: 'a', time: 0 },
        { source: 'b', time: null },
        { source: 'c', time: null },
      ]),
    ).toBe('give a time to frame 2, 3 too, or to none of them');
  });

  it('places each appearance on a timeline spanning every frame, the service default times when none were given', () => {
    expect(spanOf([0, 1.5, 3], 3)).toEqual({ start: 0, end: 3 });
    expect(spanOf(undefined, 4)).toEqual({ start: 0, end: 3 });
    expect(timelineMarks(person([0, 1.5, 3]), { start: 0, end: 3 }).map((m) => m.at)).toEqual([0, 0.5, 1]);
    // One frame only: the single mark sits in the middle rather than dividing by zero.
    expect(timelineMarks(person([0]), { start: 0, end: 0 }).map((m) => m.at)).toEqual([0.5]);
  });
});
