import { describe, expect, it } from 'vitest';
import { growthPerRow, type RssPoint } from '../../bench/scale-follow';

/** A worker's RSS as the collector leaves it: `kbPerRow` of growth under a sawtooth of garbage. */
function readings(kbPerRow: number, from: number, to: number, step: number): RssPoint[] {
  const points: RssPoint[] = [];
  for (let rows = from; rows <= to; rows += step) {
    const garbage = ((rows / step) % 7) * 15; // up to 90 MB collected every seventh reading
    points.push({ rows, rss: 300 + (rows * kbPerRow) / 1024 + garbage });
  }
  return points;
}

describe("the scale bench's RSS growth per row", () => {
  it("finds the growth under the collector's swings, where two readings would not", () => {
    const points = readings(2, 1000, 10_000, 50);
    const fitted = growthPerRow(points);
    expect(fitted?.kb).toBeGreaterThan(1.5);
    expect(fitted?.kb).toBeLessThan(2.5);
    // The two ends alone: the last reading lands high in the sawtooth, and reads as far more growth.
    const [first, last] = [points[0], points[points.length - 1]];
    const twoPoints = ((last.rss - first.rss) * 1024) / (last.rows - first.rows);
    expect(Math.abs(twoPoints - 2)).toBeGreaterThan(3 * Math.abs((fitted?.kb ?? 0) - 2));
  });

  it('reads flat memory as flat, and says nothing from too few readings', () => {
    expect(Math.abs(growthPerRow(readings(0, 1000, 10_000, 50))?.kb ?? 99)).toBeLessThan(0.5);
    expect(growthPerRow(readings(2, 1000, 1400, 50))).toBeNull();
    expect(growthPerRow([...readings(2, 1000, 10_000, 50), { rows: 10_050, rss: Number.NaN }])?.points).toBe(181);
  });
});
