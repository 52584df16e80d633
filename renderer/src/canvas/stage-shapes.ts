// The Konva configs the canvas draws that follow from its props alone: the frame, an element, the
// mask outside the frame, the safe area, snapping guides and the selection marquee.
import { safeArea } from './viewport';
import type { Guide } from './snapping';
import type { CanvasItem, OutputFrame } from './types';

const KIND_COLOURS: Record<CanvasItem['kind'], string> = { avatar: '#3b4a6b', image: '#3b5b4a', video: '#5b3b4a' };

export interface Marquee {
  a: { x: number; y: number };
  b: { x: number; y: number };
}

export function frameShape(frame: OutputFrame): Record<string, unknown> {
  return {
    x: 0,
    y: 0,
    width: frame.width,
    height: frame.height,
    fill: frame.background || '#ffffff',
    shadowColor: 'black',
    shadowBlur: 24,
    shadowOpacity: 0.5,
    listening: false,
    perfectDrawEnabled: false,
  };
}

/**
 * An element: its picture when one is drawable, else its fill; an element with neither (no media chosen
 * yet, or a picture still loading or unreadable) is a dashed box in its kind's colour.
 */
export function itemShape(item: CanvasItem, image: unknown): Record<string, unknown> {
  const base = {
    id: item.id,
    name: 'element',
    x: item.x,
    y: item.y,
    width: item.width,
    height: item.height,
    draggable: !item.locked,
    perfectDrawEnabled: false,
    shadowForStrokeEnabled: false,
    // Not on screen at the playhead (its own timing): faint, so what the frame shows then reads at a glance.
    ...(item.offstage && { opacity: 0.3 }),
  };
  if (image) return { ...base, image };
  if (item.fill) return { ...base, fill: item.fill };
  // A text's picture is being drawn (a few milliseconds): an outline keeps it findable, not a coloured block.
  if (item.text)
    return {
      ...base,
      fill: 'rgba(0,0,0,0)',
      stroke: '#8899bb',
      strokeWidth: 1,
      strokeScaleEnabled: false,
      dash: [4, 4],
    };
  return {
    ...base,
    fill: KIND_COLOURS[item.kind],
    stroke: '#8899bb',
    strokeWidth: 2,
    strokeScaleEnabled: false,
    dash: [8, 6],
  };
}

/** Four rectangles darkening everything outside the frame. */
export function maskShapes(frame: OutputFrame): Record<string, unknown>[] {
  const { width: W, height: H } = frame;
  const big = 100000;
  const base = { fill: 'rgba(18,19,23,0.72)', listening: false, perfectDrawEnabled: false };
  return [
    { ...base, x: -big, y: -big, width: big * 2 + W, height: big },
    { ...base, x: -big, y: H, width: big * 2 + W, height: big },
    { ...base, x: -big, y: 0, width: big, height: H },
    { ...base, x: W, y: 0, width: big, height: H },
  ];
}

export function safeAreaShape(frame: OutputFrame): Record<string, unknown> {
  return {
    ...safeArea(frame),
    stroke: 'rgba(120,200,255,0.55)',
    strokeWidth: 1,
    strokeScaleEnabled: false,
    dash: [6, 4],
    listening: false,
  };
}

export function guideShapes(guides: readonly Guide[], frame: OutputFrame): Record<string, unknown>[] {
  return guides.map((g) => ({
    points:
      g.orientation === 'vertical' ? [g.at, -2000, g.at, frame.height + 2000] : [-2000, g.at, frame.width + 2000, g.at],
    stroke: g.canvas ? '#ff4fd8' : '#4fd8ff',
    strokeWidth: 1,
    strokeScaleEnabled: false,
    listening: false,
  }));
}

export function marqueeShape(m: Marquee | null): Record<string, unknown> | null {
  if (!m) return null;
  return {
    x: Math.min(m.a.x, m.b.x),
    y: Math.min(m.a.y, m.b.y),
    width: Math.abs(m.a.x - m.b.x),
    height: Math.abs(m.a.y - m.b.y),
    fill: 'rgba(79,216,255,0.12)',
    stroke: '#4fd8ff',
    strokeWidth: 1,
    strokeScaleEnabled: false,
    listening: false,
  };
}
