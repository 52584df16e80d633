import { describe, expect, it } from 'vitest';
import { findMarker, judgeProbe, overlap, probePredictions } from '@common/composition/placement-probe';

describe('placement probe', () => {
  it('predicts four boxes far enough apart to tell every convention', () => {
    const boxes = probePredictions().map((p) => p.box);
    for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBeLessThan(0.15);
  });

  it('finds the marker colour in a frame', () => {
    const [w, h] = [64, 32];
    const rgb = new Uint8Array(w * h * 3).fill(255);
    for (let y = 10; y < 20; y += 1) for (let x = 5; x < 25; x += 1) rgb.set([250, 10, 245], (y * w + x) * 3);
    expect(findMarker(rgb, w, h)).toEqual({ x: 5, y: 10, width: 20, height: 10 });
    expect(findMarker(new Uint8Array(w * h * 3), w, h)).toBeNull();
  });

  it('names the convention the marker fills, and says plainly when none fits', () => {
    for (const { convention, box } of probePredictions())
      expect(judgeProbe({ ...box, x: box.x + 1 })).toMatchObject({ proved: true, convention });
    expect(judgeProbe(null)).toMatchObject({ proved: false, message: expect.stringContaining('could not be told') });
    // Aspect kept (a fit inside the frame-scaled box): none of the four.
    expect(judgeProbe({ x: 275, y: 135, width: 90, height: 90 })).toMatchObject({
      proved: false,
      message: expect.stringContaining('matches none'),
    });
  });
});
