import { z } from 'zod';
import { scriptFontRecordsOf } from '../text/script-fonts';
import { HexColour } from './colour';
import { FONT_WEIGHTS, FontWeight } from './font-weight';

/**
 * What a text element looks like. The service has no text element, so the studio draws text itself
 * (common/text) and sends a picture; every size here is in output pixels at the text's natural size.
 */

export { FONT_WEIGHTS, FontWeight };

/**
 * The fonts shipped with the studio (resources/fonts, each with its licence there). `sha256` is the
 * file's fingerprint: a project records it, so a machine with another file of the same name can tell.
 */
export const BUNDLED_FONTS = [
  {
    family: 'Source Sans 3',
    weight: 400,
    italic: false,
    file: 'SourceSans3-Regular.ttf',
    sha256: '4644c81b86ec9caaa76b634889968ed3c4f4f52f054855933acc7c2b21e53b0f',
  },
  {
    family: 'Source Sans 3',
    weight: 700,
    italic: false,
    file: 'SourceSans3-Bold.ttf',
    sha256: '9214b9d95e4231c609802815c2646c98174e2102d0d37f88978a7f8e71006e6a',
  },
  {
    family: 'Source Sans 3',
    weight: 400,
    italic: true,
    file: 'SourceSans3-It.ttf',
    sha256: '192afd78f0f54a3c69eaf02d43f4d9a821e9d6110e41d3d25d61a7385cd580e4',
  },
  {
    family: 'Source Sans 3',
    weight: 700,
    italic: true,
    file: 'SourceSans3-BoldIt.ttf',
    sha256: '7978291fc1bf314db887e0366853b33c5cf2e964c7b95cfb9ce403a6ec46a842',
  },
  {
    family: 'DejaVu Serif',
    weight: 400,
    italic: false,
    file: 'DejaVuSerif.ttf',
    sha256: '42d1edeb7952f31b1f96d767ed7030b08a39e0c372b0071641518864e2bffb51',
  },
  {
    family: 'DejaVu Serif',
    weight: 700,
    italic: false,
    file: 'DejaVuSerif-Bold.ttf',
    sha256: 'c47b5527bcdc8dcf9ea8c77054454c5a884beaca2f44851a2a823ee639cbf07f',
  },
  {
    family: 'DejaVu Serif',
    weight: 400,
    italic: true,
    file: 'DejaVuSerif-Italic.ttf',
    sha256: '2e39b1d50f90b933b00c7bb54a96afd3f86419b3d717c7cf202e36f2d4973e47',
  },
  {
    family: 'DejaVu Serif',
    weight: 700,
    italic: true,
    file: 'DejaVuSerif-BoldItalic.ttf',
    sha256: '8d3dd3d31350309042ed226af82b34539bd773518e6107cb352712853ba80308',
  },
  {
    family: 'DejaVu Sans Mono',
    weight: 400,
    italic: false,
    file: 'DejaVuSansMono.ttf',
    sha256: 'b4a6c3e4faab8773f4ff761d56451646409f29abedd68f05d38c2df667d3c582',
  },
  {
    family: 'DejaVu Sans Mono',
    weight: 700,
    italic: false,
    file: 'DejaVuSansMono-Bold.ttf',
    sha256: 'bce60f1b4421acd9ea51ba6623d7024ecbe6817a953e3654df62a5e6bdf8f769',
  },
  {
    family: 'DejaVu Sans Mono',
    weight: 400,
    italic: true,
    file: 'DejaVuSansMono-Oblique.ttf',
    sha256: '742097840c541870e8d6dc5c9b37bb1ceeea6c0dedd1d475faf903ef9df734b0',
  },
  {
    family: 'DejaVu Sans Mono',
    weight: 700,
    italic: true,
    file: 'DejaVuSansMono-BoldOblique.ttf',
    sha256: '91713a71d550bba22c2a6b2bb2a9ad8f9a159e12e4e9f0a5b2677998ba21213e',
  },
] as const satisfies readonly FontFile[];

export interface FontFile {
  family: string;
  weight: FontWeight;
  /** The family's italic (DejaVu Sans Mono's is an oblique). */
  italic: boolean;
  /** File name inside the fonts folder; a system face's is `system:<catalogue id>`. */
  file: string;
  /** Known up front for the studio's fonts; a system face's is taken by the host when the file is read. */
  sha256?: string;
  system?: true;
  /** A system face's own file name (what a project records and the user is told). */
  systemFile?: string;
}

/**
 * One face of this computer's fonts as the host's catalogue lists it: the id is all the page may send
 * back (never a path); `file` is the file's own name, for the user and for what a project records.
 */
export const SystemFontFace = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  family: z.string().min(1).max(200),
  weight: FontWeight,
  italic: z.boolean(),
  file: z.string().min(1).max(300),
  /** A font file the user added to the studio (own-fonts.ts), not one installed on this computer. */
  own: z.boolean().optional(),
});
export type SystemFontFace = z.infer<typeof SystemFontFace>;

/** The prefix a system face's file name carries through the rasteriser to the host. */
export const SYSTEM_FONT_PREFIX = 'system:';

// This process's view of the computer's fonts: set once the host's catalogue has been read (lazily).
let systemFaces: readonly FontFile[] = [];
let systemFamilies: readonly string[] = [];

/** Makes the computer's fonts (the host's catalogue) known to fontFileOf and textStyleProblem; studio families keep their name. */
export function useSystemFonts(faces: readonly SystemFontFace[]): void {
  systemFaces = faces
    .filter((f) => !FONT_FAMILIES.includes(f.family))
    .map((f) => ({
      family: f.family,
      weight: f.weight,
      italic: f.italic,
      file: `${SYSTEM_FONT_PREFIX}${f.id}`,
      system: true as const,
      systemFile: f.file,
    }));
  systemFamilies = [...new Set(systemFaces.map((f) => f.family))];
}

/** Notes a system face's SHA-256 once the host has read its file (what a project records and compares). */
export function noteSystemFontDigest(file: string, sha256: string): void {
  const face = systemFaces.find((f) => f.file === file);
  if (face) face.sha256 = sha256;
}

/** The computer's font families known so far (empty until the catalogue has been read). */
export function systemFontFamilies(): readonly string[] {
  return systemFamilies;
}

export const FontRecord = z.object({
  family: z.string().min(1),
  weight: FontWeight,
  file: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Set for a system face (recorded with its slant, since another machine must find the same face). */
  italic: z.boolean().optional(),
  system: z.literal(true).optional(),
});
export type FontRecord = z.infer<typeof FontRecord>;

export const FONT_FAMILIES: readonly string[] = [...new Set(BUNDLED_FONTS.map((f) => f.family))];

export const MAX_TEXT_CHARS = 2000;

export const TextOutline = z.object({ colour: HexColour, width: z.number().finite().min(0.5).max(40) });
export const TextShadow = z.object({
  colour: HexColour,
  opacity: z.number().min(0).max(1),
  blur: z.number().finite().min(0).max(60),
  offsetX: z.number().finite().min(-200).max(200),
  offsetY: z.number().finite().min(-200).max(200),
});
export const TextBox = z.object({
  colour: HexColour,
  opacity: z.number().min(0).max(1),
  padding: z.number().finite().min(0).max(400),
  radius: z.number().finite().min(0).max(400),
});

export const TextStyle = z.object({
  /** The words; a line break starts a new line. Empty is allowed while editing; validation reports it. */
  content: z.string().max(MAX_TEXT_CHARS),
  fontFamily: z.string().min(1),
  fontWeight: FontWeight,
  /** Drawn in the family's italic; absent is upright (as projects saved before italics were). */
  italic: z.boolean().optional(),
  /** Pixels per em at the natural size. */
  fontSize: z.number().finite().min(4).max(800),
  colour: HexColour,
  align: z.enum(['left', 'center', 'right']),
  /** Line advance as a multiple of the font size. */
  lineHeight: z.number().finite().min(0.6).max(4),
  /** Lines wrap at this width (pixels, the text itself without box or effects); null: only at line breaks. */
  wrapWidth: z.number().finite().min(8).max(8000).nullable(),
  outline: TextOutline.nullable(),
  shadow: TextShadow.nullable(),
  box: TextBox.nullable(),
});
export type TextStyle = z.infer<typeof TextStyle>;
export type TextOutline = z.infer<typeof TextOutline>;
export type TextShadow = z.infer<typeof TextShadow>;
export type TextBox = z.infer<typeof TextBox>;

export const DEFAULT_TEXT_STYLE: TextStyle = {
  content: 'Your title',
  fontFamily: 'Source Sans 3',
  fontWeight: 700,
  fontSize: 96,
  colour: '#ffffff',
  align: 'center',
  lineHeight: 1.2,
  wrapWidth: null,
  outline: null,
  shadow: { colour: '#000000', opacity: 0.5, blur: 6, offsetX: 0, offsetY: 3 },
  box: null,
};

/** Starting points a creator reaches for first; sizes are for a 1920-pixel-wide frame and scale with it. */
export const TEXT_PRESETS = {
  title: { label: 'Title', style: DEFAULT_TEXT_STYLE, place: 'centre' },
  'lower-third': {
    label: 'Lower third',
    style: {
      ...DEFAULT_TEXT_STYLE,
      content: 'Alex Morgan\nHead of Product',
      fontWeight: 400,
      fontSize: 48,
      colour: '#ffffff',
      align: 'left',
      lineHeight: 1.25,
      shadow: null,
      box: { colour: '#1d3557', opacity: 0.85, padding: 24, radius: 12 },
    },
    place: 'lower-left',
  },
  caption: {
    label: 'Plain text',
    style: {
      ...DEFAULT_TEXT_STYLE,
      content: 'Text',
      fontWeight: 400,
      fontSize: 56,
      wrapWidth: 900,
      shadow: null,
      outline: { colour: '#000000', width: 3 },
    },
    place: 'centre',
  },
} as const satisfies Record<string, { label: string; style: TextStyle; place: 'centre' | 'lower-left' }>;
export type TextPresetId = keyof typeof TEXT_PRESETS;

/** The font file for a family, weight and slant, or null when the studio has none. */
export function fontFileOf(family: string, weight: FontWeight, italic = false): FontFile | null {
  const match = (f: FontFile): boolean => f.family === family && f.weight === weight && f.italic === italic;
  return BUNDLED_FONTS.find(match) ?? systemFaces.find(match) ?? null;
}

/** Why a style cannot be drawn, in words for the user; null when it can. */
export function textStyleProblem(style: TextStyle): string | null {
  if (style.content.trim() === '') return 'The text is empty: type some words, or delete the element.';
  if (!fontFileOf(style.fontFamily, style.fontWeight, style.italic)) {
    const weight = `${style.fontWeight === 700 ? 'bold' : 'regular'}${style.italic ? ' italic' : ''}`;
    const onComputer = systemFamilies.includes(style.fontFamily)
      ? ' (this computer has the family, but not that face)'
      : '';
    return `The font "${style.fontFamily}" (${weight}) is not one this studio has${onComputer}; choose one of ${FONT_FAMILIES.join(', ')}, or one of this computer's fonts.`;
  }
  return null;
}

/** The font files a set of styles uses, each once, in a stable order (what a project records): the families', then the script fonts' its lines need. */
export function fontRecordsOf(styles: readonly TextStyle[], previous: readonly FontRecord[] = []): FontRecord[] {
  const used = new Set(styles.map((s) => fontFileOf(s.fontFamily, s.fontWeight, s.italic ?? false)));
  const bundled = BUNDLED_FONTS.filter((f) => used.has(f)).map((f) => ({
    family: f.family,
    weight: f.weight,
    file: f.file,
    sha256: f.sha256,
  }));
  return [...bundled, ...systemRecordsOf(styles, previous), ...scriptFontRecordsOf(styles)];
}

/**
 * The system faces the styles use. A face the project already recorded keeps its record while a style
 * uses it (on a machine without that file, or with another, the record is what says so); a new one is
 * recorded once its file has been read (the canvas reads it before a restyle is applied).
 */
function systemRecordsOf(styles: readonly TextStyle[], previous: readonly FontRecord[]): FontRecord[] {
  const records = new Map<string, FontRecord>();
  for (const style of styles) {
    const italic = style.italic ?? false;
    const key = `${style.fontFamily}|${style.fontWeight}|${italic}`;
    if (records.has(key) || FONT_FAMILIES.includes(style.fontFamily)) continue;
    const kept = previous.find(
      (r) =>
        r.system && r.family === style.fontFamily && r.weight === style.fontWeight && (r.italic ?? false) === italic,
    );
    const face = systemFaces.find(
      (f) => f.family === style.fontFamily && f.weight === style.fontWeight && f.italic === italic,
    );
    const record =
      kept ??
      (face?.sha256
        ? {
            family: face.family,
            weight: face.weight,
            italic,
            file: face.systemFile ?? face.file,
            sha256: face.sha256,
            system: true as const,
          }
        : null);
    if (record) records.set(key, record);
  }
  return [...records.values()].sort(
    (a, b) => a.family.localeCompare(b.family) || a.weight - b.weight || Number(a.italic) - Number(b.italic),
  );
}

/**
 * Why a style using a system font the project recorded cannot be drawn the same here: the font is not
 * on this computer, or a different file carries its name (the fingerprints differ). Never substituted.
 */
export function recordedFontProblem(style: TextStyle, records: readonly FontRecord[]): string | null {
  const italic = style.italic ?? false;
  const record = records.find(
    (r) => r.system && r.family === style.fontFamily && r.weight === style.fontWeight && (r.italic ?? false) === italic,
  );
  if (!record) return null;
  const face = `"${record.family}" (${record.weight === 700 ? 'bold' : 'regular'}${italic ? ' italic' : ''}, ${record.file})`;
  const here = fontFileOf(style.fontFamily, style.fontWeight, italic);
  if (!here?.system)
    return `The font ${face} this project was made with is not on this computer; install it, or choose another font.`;
  if (here.sha256 && here.sha256 !== record.sha256)
    return `The font ${face} on this computer is a different file from the one this project was made with (its SHA-256 differs), so the text would not look the same; install the same file, or choose another font.`;
  return null;
}
