import { shallowReactive } from 'vue';
import { pictureSize, type SceneElement, type TextStyle } from '@common/composition';
import type { TextRasteriser } from '@common/text/text-rasteriser';

/**
 * Pictures of text elements for the canvas, by what they show (style and pixel size): a data: PNG once
 * drawn, null while drawing. Reactive, so the canvas redraws when a picture is ready. A picture that
 * failed keeps its reason (the Problems list says why in words of its own).
 */
export class TextPictures {
  private readonly ready = shallowReactive(new Map<string, string | { error: string }>());
  private readonly drawing = new Set<string>();

  constructor(private readonly rasteriser: () => TextRasteriser) {}

  /** The element's picture as a data: URL, or null while it is drawn (or when it cannot be). */
  of(element: SceneElement): string | null {
    if (element.type !== 'text' || !element.text) return null;
    const size = pictureSize(element);
    const key = pictureKey(element.text, size);
    const known = this.ready.get(key);
    if (typeof known === 'string') return known;
    if (known || this.drawing.has(key)) return null;
    this.drawing.add(key);
    this.rasteriser()
      .rasterise(element.text, size)
      .then(
        (drawn) => this.keep(key, `data:image/png;base64,${base64Of(drawn.png)}`),
        (error: unknown) => this.keep(key, { error: (error as Error).message }),
      )
      .finally(() => this.drawing.delete(key));
    return null;
  }

  /** Each resize or edit draws a new picture: the oldest are let go past a few hundred. */
  private keep(key: string, value: string | { error: string }): void {
    this.ready.set(key, value);
    if (this.ready.size > MAX_KEPT) this.ready.delete(this.ready.keys().next().value as string);
  }
}

const MAX_KEPT = 300;

function pictureKey(style: TextStyle, size: { width: number; height: number }): string {
  return JSON.stringify([style, size.width, size.height]);
}

function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
