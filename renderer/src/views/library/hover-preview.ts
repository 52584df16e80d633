// The video played on hovering a row's picture. One popover for the whole table, placed at the picture
// hovered: a popover component in every row was the heaviest part of drawing a screen of rows.
import { shallowRef } from 'vue';

/** A preview shows once the pointer has rested this long on a picture. */
const DELAY_MS = 250;

export interface PreviewSpot {
  source: string;
  /** Where the popover points: the picture's right edge, at its middle (viewport pixels). */
  x: number;
  y: number;
}

/** The picture hovered now, if its preview is showing. */
export const previewSpot = shallowRef<PreviewSpot | null>(null);

let waiting: ReturnType<typeof setTimeout> | undefined;

/** The picture's pointer handlers: the preview of `source` after a rest, gone when the pointer leaves. */
export function previewHandlers(source: string) {
  return {
    onMouseenter: (event: MouseEvent) => {
      clearTimeout(waiting);
      const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
      waiting = setTimeout(() => {
        previewSpot.value = { source, x: box.right, y: box.top + box.height / 2 };
      }, DELAY_MS);
    },
    onMouseleave: () => {
      clearTimeout(waiting);
      previewSpot.value = null;
    },
  };
}
