import { collectSnapTargets, snapBox, type Box, type Guide, type SnapTargets } from './snapping';
import type { CanvasItem, MoveCommit } from './types';

/**
 * State of one drag gesture over the selection. Konva moves the node under the pointer; this works out
 * where it should really go (snapped) and where the rest of the selection follows, in output pixels.
 * It holds plain numbers only, so it is testable without Konva.
 */
export class DragSession {
  private readonly targets: SnapTargets;
  private readonly starts = new Map<string, { x: number; y: number }>();
  private readonly lead: CanvasItem;
  private last: { x: number; y: number };

  constructor(
    leadId: string,
    items: readonly CanvasItem[],
    selected: ReadonlySet<string>,
    frame: { width: number; height: number },
    private readonly snapping: boolean,
  ) {
    const others: Box[] = [];
    let lead: CanvasItem | undefined;
    for (const item of items) {
      if (item.id === leadId) lead = item;
      if (selected.has(item.id) && !item.locked) this.starts.set(item.id, { x: item.x, y: item.y });
      else if (!selected.has(item.id)) others.push(item);
    }
    if (!lead) throw new Error(`Drag started on an element that is not in the scene: ${leadId}`);
    this.lead = lead;
    this.starts.set(lead.id, { x: lead.x, y: lead.y });
    this.last = { x: lead.x, y: lead.y };
    this.targets = collectSnapTargets(frame, others);
  }

  /** The ids that move together in this gesture (the unlocked part of the selection). */
  get ids(): string[] {
    return [...this.starts.keys()];
  }

  /**
   * Pointer moved the lead element to (x, y). Returns the corrected lead position, the offset to apply
   * to every moving element, and the guides to draw.
   */
  move(x: number, y: number, threshold: number): { x: number; y: number; dx: number; dy: number; guides: Guide[] } {
    let nx = x;
    let ny = y;
    let guides: Guide[] = [];
    if (this.snapping) {
      const snapped = snapBox({ x, y, width: this.lead.width, height: this.lead.height }, this.targets, threshold);
      nx = snapped.x;
      ny = snapped.y;
      guides = snapped.guides;
    }
    this.last = { x: nx, y: ny };
    return { x: nx, y: ny, dx: nx - this.lead.x, dy: ny - this.lead.y, guides };
  }

  /** Start position of a moving element, for placing followers during the drag. */
  startOf(id: string): { x: number; y: number } | undefined {
    return this.starts.get(id);
  }

  /** Final positions, rounded to whole output pixels as the request bodies carry them. */
  finish(): MoveCommit[] {
    const dx = this.last.x - this.lead.x;
    const dy = this.last.y - this.lead.y;
    if (Math.round(dx) === 0 && Math.round(dy) === 0) return [];
    return [...this.starts].map(([id, start]) => ({ id, x: Math.round(start.x + dx), y: Math.round(start.y + dy) }));
  }
}

/** Items whose box intersects the marquee rectangle (normalised so it may be drawn in any direction). */
export function itemsInMarquee(
  items: readonly CanvasItem[],
  a: { x: number; y: number },
  b: { x: number; y: number },
): string[] {
  const left = Math.min(a.x, b.x);
  const right = Math.max(a.x, b.x);
  const top = Math.min(a.y, b.y);
  const bottom = Math.max(a.y, b.y);
  return items
    .filter((it) => it.x < right && it.x + it.width > left && it.y < bottom && it.y + it.height > top)
    .map((it) => it.id);
}
