import { describe, expect, it } from 'vitest';
import { collectSnapTargets, snapBox } from '@/canvas/snapping';
import { DragSession, itemsInMarquee } from '@/canvas/drag-session';
import { computeViewport, fitScale, stepZoom } from '@/canvas/viewport';
import type { CanvasItem } from '@/canvas/types';

const frame = { width: 1920, height: 1080 };

function item(id: string, x: number, y: number, width = 200, height = 100, locked = false): CanvasItem {
  return { id, kind: 'image', src: null, label: id, locked, x, y, width, height, maxWidth: 1920, maxHeight: 1080 };
}

describe('snapping', () => {
  it('snaps a box edge to the canvas edge and reports a canvas guide', () => {
    const targets = collectSnapTargets(frame, []);
    const r = snapBox({ x: 4, y: 300, width: 200, height: 100 }, targets, 6);
    expect(r.x).toBe(0);
    expect(r.y).toBe(300);
    expect(r.guides).toEqual([{ orientation: 'vertical', at: 0, canvas: true }]);
  });

  it('snaps a box centre to the canvas centre on both axes', () => {
    const targets = collectSnapTargets(frame, []);
    const r = snapBox({ x: 1920 / 2 - 100 + 3, y: 540 - 50 - 5, width: 200, height: 100 }, targets, 6);
    expect(r).toMatchObject({ x: 860, y: 490 });
    expect(r.guides.map((g) => g.at).sort()).toEqual([540, 960]);
  });

  it('snaps to another element and marks the guide as not from the canvas', () => {
    const targets = collectSnapTargets(frame, [{ x: 500, y: 700, width: 300, height: 100 }]);
    const r = snapBox({ x: 803, y: 200, width: 50, height: 50 }, targets, 6);
    expect(r.x).toBe(800);
    expect(r.guides).toEqual([{ orientation: 'vertical', at: 800, canvas: false }]);
  });

  it('leaves the box alone beyond the threshold', () => {
    const targets = collectSnapTargets(frame, [{ x: 500, y: 700, width: 300, height: 100 }]);
    const r = snapBox({ x: 330, y: 233, width: 50, height: 50 }, targets, 6);
    expect(r).toEqual({ x: 330, y: 233, guides: [] });
  });
});

describe('drag session', () => {
  it('moves the whole unlocked selection by the lead element offset, rounded', () => {
    const items = [item('a', 100, 100), item('b', 400, 400), item('c', 900, 300, 200, 100, true), item('d', 1500, 800)];
    const s = new DragSession('a', items, new Set(['a', 'b', 'c']), frame, false);
    s.move(150.4, 120.6, 6);
    expect(s.finish()).toEqual([
      { id: 'a', x: 150, y: 121 },
      { id: 'b', x: 450, y: 421 },
    ]);
  });

  it('snaps the lead to elements outside the selection only', () => {
    const items = [item('a', 100, 100), item('d', 1000, 800)];
    const s = new DragSession('a', items, new Set(['a']), frame, true);
    const r = s.move(797, 500, 6);
    expect(r.x).toBe(800);
    expect(r.guides[0]).toMatchObject({ orientation: 'vertical', at: 1000, canvas: false });
  });

  it('commits nothing for a click that did not move', () => {
    const s = new DragSession('a', [item('a', 10, 10)], new Set(['a']), frame, true);
    s.move(10.2, 10.3, 6);
    expect(s.finish()).toEqual([]);
  });

  it('selects what the marquee touches, drawn in any direction', () => {
    const items = [item('a', 0, 0, 100, 100), item('b', 500, 500, 100, 100)];
    expect(itemsInMarquee(items, { x: 150, y: 150 }, { x: 50, y: 50 })).toEqual(['a']);
    expect(itemsInMarquee(items, { x: 0, y: 0 }, { x: 1000, y: 1000 })).toEqual(['a', 'b']);
  });
});

describe('viewport', () => {
  it('fits and centres the frame in the panel', () => {
    const vp = computeViewport({ width: 1000, height: 700 }, frame, null);
    expect(vp.scale).toBeCloseTo(fitScale({ width: 1000, height: 700 }, frame));
    expect(vp.x).toBe(Math.round((1000 - 1920 * vp.scale) / 2));
    expect(1920 * vp.scale).toBeLessThanOrEqual(1000 - 48);
  });

  it('steps zoom through fixed stops', () => {
    expect(stepZoom(0.5, 1)).toBe(0.67);
    expect(stepZoom(0.5, -1)).toBe(0.33);
    expect(stepZoom(0.41, 1)).toBe(0.5);
  });
});
