import { z } from 'zod';
import { BUNDLED_FONTS, TextStyle } from '../composition/text-style';
import { SCRIPT_FONT_FILE } from '../text/script-fonts';
import { call } from './contract';

/**
 * Text elements: the page draws them on the canvas with the same rasteriser the host uses, so it asks
 * the host for the font files; at submit the host draws each one and hands back a local picture that
 * the upload step links like any chosen file.
 */
export const TextPicture = z.object({
  /** A file: reference the host granted: the element's transparent PNG, drawn at its box. */
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type TextPicture = z.infer<typeof TextPicture>;

const bundledFont = z.enum(BUNDLED_FONTS.map((f) => f.file) as [string, ...string[]]);
const fontFile = z.union([bundledFont, z.string().regex(SCRIPT_FONT_FILE, 'not a script font file of the studio')]);
const pixels = z.number().int().min(1).max(8000);

export const textCalls = {
  /** A bundled or script font file's bytes as TrueType, base64 (the page's rasteriser measures and draws with them). */
  'text.font': call(z.tuple([fontFile]), z.object({ base64: z.string() })),
  /** The picture of one text element at `width` × `height` pixels; fails with the reason for empty text or an unknown font. */
  'text.picture': call(z.tuple([z.object({ style: TextStyle, width: pixels, height: pixels })]), TextPicture),
};
