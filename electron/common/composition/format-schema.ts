import { z } from 'zod';

/**
 * A project's other formats (its layouts for other frame sizes). The document's own `output` and its
 * elements' boxes are the format being edited; each entry here keeps, for another frame, only what is
 * per format: every element's box, and for text the wrapping that box was measured with. Content
 * (words, media, voices, timing, captions, music) is shared and stays on the elements.
 */
export const ElementLayout = z.object({
  x: z.number().finite(),
  y: z.number().finite(),
  width: z.number().finite().min(0),
  height: z.number().finite().min(0),
  /** A text's natural size at this format's wrapping (its picture is drawn at the box from it). */
  mediaSize: z.object({ width: z.number().positive().finite(), height: z.number().positive().finite() }).optional(),
  /** A text's wrap width in this format (null: one line per paragraph). */
  wrapWidth: z.number().finite().min(8).max(8000).nullable().optional(),
  /** The text's look (all but the wrapping) when this layout was made: another look is laid out again. */
  styleSignature: z.string().optional(),
});
export type ElementLayout = z.infer<typeof ElementLayout>;

const Side = z.number().int().min(16).max(3840);

export const FormatLayout = z.object({
  output: z.object({ width: Side, height: Side }),
  /** Boxes by element id; an element without one (added since) is reframed from the format being edited. */
  elements: z.record(z.string(), ElementLayout),
});
export type FormatLayout = z.infer<typeof FormatLayout>;
