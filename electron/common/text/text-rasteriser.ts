import { initWasm, Resvg, type InitInput } from '@resvg/resvg-wasm';
import * as opentypeModule from 'opentype.js';
import { fontFileOf, textStyleProblem, type TextStyle } from '../composition/text-style';
import { loadSubsetRanges, SCRIPT_FAMILIES, scriptFaceOf, scriptFilesFor, type ScriptFace } from './script-fonts';
import { bidiRuns } from './bidi-runs';
import { layoutText, type FontMeasure, type MeasuredRun, type TextLayout } from './text-layout';
import { escapeXml, textSvg } from './text-svg';

/**
 * The one text rasteriser: text element → SVG → transparent PNG with resvg's WebAssembly build, which
 * runs unchanged in the page (the canvas) and in Node (the preview, the submitted picture, the CLI).
 * Each environment only says where the .wasm and the font files come from.
 */
export interface RasteriserSources {
  /** The resvg .wasm: its URL in the page, its bytes in Node. */
  wasm: () => InitInput | Promise<InitInput>;
  /** A font file's bytes (TrueType), by its name in the fonts folder (BUNDLED_FONTS) or a script font's name (script-fonts.ts). */
  fontFile: (file: string) => Promise<Uint8Array>;
}

export interface RasterisedText {
  png: Uint8Array;
  /** RGBA with premultiplied alpha, row by row (what the sameness tests compare). */
  pixels: Uint8Array;
  width: number;
  height: number;
}

/** A text element that cannot be drawn (empty, or a font the studio lacks); the message is for the user. */
export class TextStyleError extends Error {}

// The page build carries named exports, Node's CommonJS build a default object: accept either.
const opentype = (
  (opentypeModule as { parse?: unknown }).parse
    ? opentypeModule
    : (opentypeModule as unknown as { default: typeof opentypeModule }).default
) as typeof opentypeModule;

/** resvg's module can be started once per JavaScript realm; every rasteriser in it shares that start. */
let wasmReady: Promise<void> | null = null;

interface LoadedFont {
  bytes: Uint8Array;
  font: opentypeModule.Font;
  measure: FontMeasure;
}

/** The fonts one style needs: its family's file, and the script files its paragraphs need. */
interface StyleFonts {
  buffers: Uint8Array[];
  measure: FontMeasure;
}

export class TextRasteriser {
  private readonly fonts = new Map<string, Promise<LoadedFont>>();

  constructor(private readonly sources: RasteriserSources) {}

  /** The lines and natural size of a style (what the document stores as the element's media size). */
  async layout(style: TextStyle): Promise<TextLayout> {
    const fonts = await this.fontsFor(style);
    return layoutText(style, fonts.measure);
  }

  /** The element's picture at `pixels` (its box in output pixels, rounded to whole pixels, at least 1). */
  async rasterise(style: TextStyle, pixels: { width: number; height: number }): Promise<RasterisedText> {
    // Layout works for empty text (the box being edited); a picture of nothing is refused with the reason.
    const problem = textStyleProblem(style);
    if (problem) throw new TextStyleError(problem);
    const fonts = await this.fontsFor(style);
    await this.start();
    const size = { width: Math.max(1, Math.round(pixels.width)), height: Math.max(1, Math.round(pixels.height)) };
    const svg = textSvg(style, layoutText(style, fonts.measure), size);
    const resvg = new Resvg(svg, {
      font: { fontBuffers: fonts.buffers, defaultFontFamily: style.fontFamily, loadSystemFonts: false },
      fitTo: { mode: 'original' },
    });
    try {
      const image = resvg.render();
      try {
        return { png: image.asPng(), pixels: image.pixels, width: image.width, height: image.height };
      } finally {
        image.free();
      }
    } finally {
      resvg.free();
    }
  }

  private start(): Promise<void> {
    wasmReady ??= Promise.resolve(this.sources.wasm())
      .then((input) => initWasm(input))
      .catch((error: unknown) => {
        wasmReady = null;
        throw new Error(`The text renderer (resvg) could not start: ${(error as Error).message}`);
      });
    return wasmReady;
  }

  /**
   * The family's font plus, for paragraphs in Arabic, CJK or Korean, the script font files their characters
   * need (loaded once each). Lines in a script face are measured by that face: Arabic by resvg itself,
   * since its joined letter forms are narrower than the letters alone; CJK and Korean character by character.
   */
  private async fontsFor(style: TextStyle): Promise<StyleFonts> {
    const primary = await this.fontFor(style);
    const files = new Map<ScriptFace, string[]>();
    for (const paragraph of style.content.split(/\r?\n/)) {
      const face = scriptFaceOf(paragraph);
      if (!face) continue;
      const ranges = face === 'arabic' ? null : await loadSubsetRanges(face);
      const needed = scriptFilesFor(face, paragraph, style.fontWeight, ranges);
      files.set(face, [...new Set([...(files.get(face) ?? []), ...needed])]);
    }
    if (files.size === 0) return { buffers: [primary.bytes], measure: primary.measure };
    await this.start();
    const loaded = new Map<ScriptFace, LoadedFont[]>();
    for (const [face, names] of files) loaded.set(face, await Promise.all(names.map((name) => this.file(name))));
    const buffers = [primary.bytes, ...[...loaded.values()].flat().map((f) => f.bytes)];
    const arabic = loaded.get('arabic');
    const arabicBytes = arabic?.map((f) => f.bytes) ?? [];
    const inArabic = (char: string): boolean => !!arabic?.some((f) => f.font.charToGlyphIndex(char) > 0);
    // An Arabic line with letters, digits or punctuation the Arabic font lacks is drawn as runs in two fonts.
    const runs = (text: string, size: number, rtl: boolean): MeasuredRun[] | null => {
      if (!arabic || scriptFaceOf(text) !== 'arabic' || Array.from(text).every((c) => /\s/u.test(c) || inArabic(c)))
        return null;
      return bidiRuns(text, rtl, inArabic).map((run) => {
        if (!run.script) return { text: run.text, face: null, width: primary.measure.width(run.text, size), shift: 0 };
        const shaped = shapedRun(run.text, size, SCRIPT_FAMILIES.arabic, arabicBytes);
        return { text: run.text, face: 'arabic', ...shaped };
      });
    };
    const width = (text: string, size: number): number => {
      const face = scriptFaceOf(text);
      const fonts = face ? loaded.get(face) : undefined;
      const mixed = face === 'arabic' ? runs(text, size, false) : null;
      if (mixed) return mixed.reduce((sum, run) => sum + run.width, 0);
      if (face === 'arabic' && arabic) return shapedWidth(text, size, SCRIPT_FAMILIES.arabic, arabicBytes);
      if (face && fonts)
        return perCharacterWidth(
          text,
          size,
          fonts.map((f) => f.font),
        );
      return primary.measure.width(text, size);
    };
    return { buffers, measure: { width, runs, ascent: primary.measure.ascent, descent: primary.measure.descent } };
  }

  private fontFor(style: TextStyle): Promise<LoadedFont> {
    const known = fontFileOf(style.fontFamily, style.fontWeight, style.italic);
    if (!known)
      return Promise.reject(new TextStyleError(textStyleProblem({ ...style, content: 'x' }) ?? 'Unknown font.'));
    return this.file(known.file);
  }

  private file(name: string): Promise<LoadedFont> {
    let font = this.fonts.get(name);
    if (!font) {
      font = this.sources.fontFile(name).then((bytes) => {
        const parsed = parseFont(bytes);
        return { bytes, font: parsed, measure: measureOf(parsed) };
      });
      font.catch(() => this.fonts.delete(name));
      this.fonts.set(name, font);
    }
    return font;
  }
}

/** The width resvg gives a line once shaped (joined Arabic letters), from the ink's extent plus its side bearings' share. */
function shapedWidth(text: string, size: number, family: string, buffers: Uint8Array[]): number {
  return text.trim() === '' ? 0 : shapedRun(text, size, family, buffers).width;
}

/** A shaped run's width as shapedWidth gives it, and how far right its text must start for its ink to begin a twentieth of an em into its slot. */
function shapedRun(
  text: string,
  size: number,
  family: string,
  buffers: Uint8Array[],
): { width: number; shift: number } {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><text xml:space="preserve" x="0" y="${size}" font-size="${size}" font-family="${family}">${escapeXml(text)}</text></svg>`;
  const resvg = new Resvg(svg, { font: { fontBuffers: buffers, defaultFontFamily: family, loadSystemFonts: false } });
  try {
    const box = resvg.getBBox();
    return box ? { width: box.width + size * 0.1, shift: size * 0.05 - box.x } : { width: 0, shift: 0 };
  } finally {
    resvg.free();
  }
}

/** CJK needs no shaping for its width: each character's advance, from whichever file of the family has it. */
function perCharacterWidth(text: string, size: number, fonts: opentypeModule.Font[]): number {
  let width = 0;
  for (const char of Array.from(text)) {
    const font = fonts.find((f) => f.charToGlyphIndex(char) > 0) ?? fonts[0];
    width += ((font.charToGlyph(char).advanceWidth ?? 0) * size) / font.unitsPerEm;
  }
  return width;
}

function parseFont(bytes: Uint8Array): opentypeModule.Font {
  return opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function measureOf(font: opentypeModule.Font): FontMeasure {
  // Advances and pair kerning glyph by glyph: opentype.js's full shaping pipeline throws on some fonts'
  // substitution tables (DejaVu's ccmp), while line breaking needs widths only.
  const width = (text: string, size: number): number => {
    let units = 0;
    let previous: opentypeModule.Glyph | null = null;
    for (const char of Array.from(text)) {
      const glyph = font.charToGlyph(char);
      units += glyph.advanceWidth ?? 0;
      if (previous) units += kerning(font, previous, glyph);
      previous = glyph;
    }
    return (units * size) / font.unitsPerEm;
  };
  return {
    width,
    ascent: font.ascender / font.unitsPerEm,
    descent: Math.abs(font.descender) / font.unitsPerEm,
  };
}

function kerning(font: opentypeModule.Font, left: opentypeModule.Glyph, right: opentypeModule.Glyph): number {
  try {
    return font.getKerningValue(left, right);
  } catch {
    return 0;
  }
}
