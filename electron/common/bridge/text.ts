import { z } from 'zod';
import { BUNDLED_FONTS, SystemFontFace, TextStyle } from '../composition/text-style';
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
// A system face is named by its catalogue id only: the page can never ask for a path.
const systemFont = z.string().regex(/^system:[0-9a-f]{16}$/, "not a catalogue id of this computer's fonts");
const fontFile = z.union([
  bundledFont,
  systemFont,
  z.string().regex(SCRIPT_FONT_FILE, 'not a script font file of the studio'),
]);
const pixels = z.number().int().min(1).max(8000);

/**
 * The largest font file the user can add: its bytes travel as base64 in one bridge call, which the web
 * host takes up to 2 MB. A brand's Latin faces are well under it (tens to hundreds of kB).
 */
export const MAX_OWN_FONT_BYTES = 1_400_000;

export const textCalls = {
  /** This computer's fonts the studio can draw (scanned on the first call); `skipped` counts files passed over, `capped` says the scan stopped at its file or time limit. */
  'text.systemFonts': call(
    z.tuple([]),
    z.object({ faces: z.array(SystemFontFace), skipped: z.number().int().min(0), capped: z.boolean() }),
  ),
  /** A bundled, script or system (by catalogue id) font file's bytes as TrueType, base64 (the page's rasteriser measures and draws with them); a system face's SHA-256 with them. */
  'text.font': call(
    z.tuple([fontFile]),
    z.object({
      base64: z.string(),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    }),
  ),
  /**
   * Adds a font file the user picked or dropped (TTF, OTF or WOFF2; its bytes, never a path): kept in the
   * data folder and listed with this computer's fonts. Refused, naming the file, when it is not one.
   */
  'text.addFont': call(
    z.tuple([
      z.object({
        name: z.string().min(1).max(300),
        base64: z
          .string()
          .min(1)
          .max(Math.ceil(MAX_OWN_FONT_BYTES / 3) * 4),
      }),
    ]),
    SystemFontFace,
  ),
  /** The picture of one text element at `width` × `height` pixels; fails with the reason for empty text or an unknown font. */
  'text.picture': call(z.tuple([z.object({ style: TextStyle, width: pixels, height: pixels })]), TextPicture),
};
