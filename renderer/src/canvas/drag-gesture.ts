import Konva from 'konva';
import type { ShallowRef } from 'vue';
import { DragSession } from './drag-session';
import type { Guide } from './snapping';
import type { CanvasItem, MoveCommit, OutputFrame } from './types';

const SNAP_SCREEN_PX = 6;

/** What a drag over the canvas reads from it: its props, its Konva nodes and the view's scale. */
export interface DragGestureCanvas {
  items: () => readonly CanvasItem[];
  selected: () => ReadonlySet<string>;
  frame: () => OutputFrame;
  snapping: () => boolean;
  /** Screen pixels per output pixel. */
  scale: () => number;
  stage: () => Konva.Stage | null;
  contentLayer: () => Konva.Layer | undefined;
  dragLayer: () => Konva.Layer | undefined;
  /** The group on the drag layer that holds the moving nodes while the gesture lasts. */
  dragGroup: () => Konva.Group | undefined;
  /** The overlay's snapping guides, drawn while the gesture lasts. */
  guides: ShallowRef<Guide[]>;
  /** The gesture ended and moved something: reported once, with where every moved element goes. */
  moved: (commits: MoveCommit[]) => void;
}

/**
 * Dragging the selection over the canvas: the moving nodes go onto the drag layer, the lead node snaps
 * and the rest follow it, and at the drop the nodes go back where the document says they are while the
 * move is reported once (the document moves them for real).
 */
export function useDragGesture(canvas: DragGestureCanvas) {
  let session: DragSession | null = null;

  /** Nodes lifted into the drag layer for the gesture, with where they came from. */
  let lifted: Array<{ node: Konva.Node; parent: Konva.Container; index: number }> = [];

  function onDragStart(item: CanvasItem): void {
    const sel = canvas.selected().has(item.id) ? canvas.selected() : new Set([item.id]);
    session = new DragSession(item.id, canvas.items(), sel, canvas.frame(), canvas.snapping());
    // Konva's advice for large scenes: while they move, the moving nodes live on a layer of their own,
    // so each frame redraws that small layer and the hundreds of still elements stay painted.
    const st = canvas.stage();
    const group = canvas.dragGroup();
    if (!st || !group) return;
    lifted = session.ids
      .map((id) => st.findOne(`#${CSS.escape(id)}`))
      .filter((n): n is Konva.Node => !!n && !!n.getParent())
      .map((node) => ({ node, parent: node.getParent() as Konva.Container, index: node.zIndex() }))
      .sort((a, b) => a.index - b.index);
    for (const { node } of lifted) node.moveTo(group);
    canvas.contentLayer()?.batchDraw();
  }

  function dropLifted(): void {
    for (const { node, parent, index } of lifted) {
      node.moveTo(parent);
      node.zIndex(Math.min(index, parent.children.length - 1));
    }
    if (lifted.length > 0) {
      canvas.contentLayer()?.batchDraw();
      canvas.dragLayer()?.batchDraw();
    }
    lifted = [];
  }

  function onDragMove(item: CanvasItem, evt: Konva.KonvaEventObject<DragEvent>): void {
    if (!session) return;
    const node = evt.target;
    const result = session.move(node.x(), node.y(), SNAP_SCREEN_PX / canvas.scale());
    node.position({ x: result.x, y: result.y });
    const st = canvas.stage();
    for (const id of session.ids) {
      if (id === item.id || !st) continue;
      const start = session.startOf(id);
      const follower = st.findOne(`#${CSS.escape(id)}`);
      if (start && follower) follower.position({ x: start.x + result.dx, y: start.y + result.dy });
    }
    const guides = canvas.guides;
    if (guides.value.length !== 0 || result.guides.length !== 0) guides.value = result.guides;
  }

  function onDragEnd(): void {
    const s = session;
    session = null;
    canvas.guides.value = [];
    dropLifted();
    if (!s) return;
    const commits = s.finish();
    // Put the nodes back where the document says they are; the commit moves them for real, and a
    // refused commit (say, a locked element) then leaves nothing out of step.
    const st = canvas.stage();
    for (const id of s.ids) {
      const start = s.startOf(id);
      const node = st?.findOne(`#${CSS.escape(id)}`);
      if (start && node) node.position(start);
    }
    if (commits.length > 0) canvas.moved(commits);
  }

  return { onDragStart, onDragMove, onDragEnd };
}
