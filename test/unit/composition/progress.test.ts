import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgressParser, type RenderProgress } from '@common/composition';
import { fixtures } from './helpers';

function feed(text: string, totalMs: number): RenderProgress[] {
  const parser = createProgressParser(totalMs);
  return text.split('\n').flatMap((line) => parser.push(line) ?? []);
}

describe('ffmpeg -progress parsing', () => {
  it('reads a real transcript', () => {
    const reports = feed(readFileSync(join(fixtures, 'progress-3s.txt'), 'utf8'), 3000);
    expect(reports).toEqual([
      { outTimeMs: 0, fraction: 0, frame: 1, speed: 0, done: false },
      { outTimeMs: 3019, fraction: 1, frame: 75, speed: 12.7, done: true },
    ]);
  });

  it('handles N/A, clock-only times and never goes backwards', () => {
    const text = [
      'frame=0',
      'out_time_us=N/A',
      'out_time_ms=N/A',
      'out_time=N/A',
      'speed=N/A',
      'progress=continue',
      'frame=50',
      'out_time=00:00:02.500000',
      'speed=5.01x',
      'progress=continue',
      'frame=40',
      'out_time_us=2000000',
      'progress=continue',
      'garbage line',
    ].join('\n');
    expect(feed(text, 10_000)).toEqual([
      { outTimeMs: 0, fraction: 0, frame: 0, speed: null, done: false },
      { outTimeMs: 2500, fraction: 0.25, frame: 50, speed: 5.01, done: false },
      { outTimeMs: 2500, fraction: 0.25, frame: 40, speed: null, done: false },
    ]);
  });
});
