import type { Box } from './snapping';

/**
 * What the canvas draws for one element: a view of the document in output pixels, built by the
 * store's adapter. The canvas never stores anything; it emits gestures and the store applies them.
 */
export interface CanvasItem extends Box {
  id: string;
  kind: 'avatar' | 'image' | 'video';
  /** Picture to draw: an image, a video (first frame while stopped), or an avatar's thumbnail. */
  src: string | null;
  label: string;
  locked: boolean;
  /** Largest size the element may be given (the document's scale limit, converted to pixels). */
  maxWidth: number;
  maxHeight: number;
  /** Solid colour for an element that is a colour rather than a picture. */
  fill?: string;
  /** A text element: its picture is drawn by the studio, and a transparent box stands in while it is. */
  text?: boolean;
  /** Timed inside its scene and not shown at the playhead: drawn faint, still selectable. */
  offstage?: boolean;
}

export interface OutputFrame {
  width: number;
  height: number;
  background: string;
}

export interface MoveCommit {
  id: string;
  x: number;
  y: number;
}

export interface ResizeCommit extends Box {
  id: string;
}
