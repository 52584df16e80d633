import { initWasm, Resvg, type InitInput } from '@resvg/resvg-wasm';
import * as opentypeModule from 'opentype.js';
import { fontFileOf, textStyleProblem, type TextStyle } from '../composition/text-style';
import { layoutText, type FontMeasure, type TextLayout } from './text-layout';
import { textSvg } from './text-svg';

/**
 * The one text rasteriser: text element → SVG → transparent PNG with resvg's WebAssembly build, which
 * runs unchanged in the page (the canvas) and in Node (the preview, the submitted picture, the CLI).
 * Each environment only says where the .wasm and the font files come from.
 */
export interface RasteriserSources {
  /** The resvg .wasm: its URL in the page, its bytes in Node. */
  wasm: () => InitInput | Promise<InitInput>;
  /** A font file's bytes, by its name in the fonts folder (BUNDLED_FONTS). */
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
const opentype = ((opentypeModule as { parse?: unknown }).parse ? opentypeModule : (opentypeModule as unknown as { default: typeof opentypeModule }).default) as typeof opentypeModule;

/** resvg's module can be started once per JavaScript realm; every rasteriser in it shares that start. */
let wasmReady: Promise<void> | null = null;

export class TextRasteriser {
  private readonly fonts = new Map<string, Promise<{ bytes: Uint8Array; measure: FontMeasure }>>();

  constructor(private readonly sources: RasteriserSources) {}

  /** The lines and natural size of a style (what the document stores as the element's media size). */
  async layout(style: TextStyle): Promise<TextLayout> {
    const font = await this.fontFor(style);
    return layoutText(style, font.measure);
  }

  /** The element's picture at `pixels` (its box in output pixels, rounded to whole pixels, at least 1). */
  async rasterise(style: TextStyle, pixels: { width: number; height: number }): Promise<RasterisedText> {
    // Layout works for empty text (the box being edited); a picture of nothing is refused with the reason.
    const problem = textStyleProblem(style);
    if (problem) throw new TextStyleError(problem);
    const font = await this.fontFor(style);
    await this.start();
    const size = { width: Math.max(1, Math.round(pixels.width)), height: Math.max(1, Math.round(pixels.height)) };
    const svg = textSvg(style, layoutText(style, font.measure), size);
    const resvg = new Resvg(svg, { font: { fontBuffers: [font.bytes], defaultFontFamily: style.fontFamily }, fitTo: { mode: 'original' } });
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

  private fontFor(style: TextStyle): Promise<{ bytes: Uint8Array; measure: FontMeasure }> {
    const known = fontFileOf(style.fontFamily, style.fontWeight);
    if (!known) return Promise.reject(new TextStyleError(textStyleProblem({ ...style, content: 'x' }) ?? 'Unknown font.'));
    const file = known.file;
    let font = this.fonts.get(file);
    if (!font) {
      font = this.sources.fontFile(file).then((bytes) => ({ bytes, measure: measureOf(bytes) }));
      font.catch(() => this.fonts.delete(file));
      this.fonts.set(file, font);
    }
    return font;
  }
}

function measureOf(bytes: Uint8Array): FontMeasure {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const font = opentype.parse(buffer);
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
