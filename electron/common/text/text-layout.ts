import type { TextStyle } from '../composition/text-style';

/**
 * Where every line of a text element goes, from the font's own measurements. The rasteriser draws
 * exactly this, so the canvas, the preview and the result agree on line breaks and size.
 */
export interface FontMeasure {
  /** Advance width of `text` at `size` pixels per em, kerning included. */
  width(text: string, size: number): number;
  /** Ascender above and descender below the baseline, as fractions of the em (both positive). */
  ascent: number;
  descent: number;
}

export interface TextLine {
  text: string;
  /** The anchor the line is drawn at (its left, centre or right, by the alignment) and its baseline. */
  x: number;
  baseline: number;
  width: number;
}

export interface TextLayout {
  /** The element's natural size: text, box padding and the room its outline and shadow need. */
  width: number;
  height: number;
  lines: TextLine[];
  /** The background box, when the style has one. */
  box: { x: number; y: number; width: number; height: number } | null;
}

/** Room around the text for what is drawn outside the letters (outline, shadow). */
export function bleedOf(style: TextStyle): number {
  const outline = style.outline ? style.outline.width / 2 : 0;
  const shadow = style.shadow ? style.shadow.blur * 1.5 + Math.max(Math.abs(style.shadow.offsetX), Math.abs(style.shadow.offsetY)) : 0;
  return Math.ceil(Math.max(outline, shadow));
}

export function layoutText(style: TextStyle, font: FontMeasure): TextLayout {
  const size = style.fontSize;
  const measure = (text: string): number => font.width(text, size);
  const rows = style.content.split(/\r?\n/).flatMap((paragraph) => (style.wrapWidth === null ? [paragraph] : wrap(paragraph, style.wrapWidth, measure)));
  const widths = rows.map(measure);
  const contentWidth = style.wrapWidth ?? Math.max(1, ...widths);
  const lineAdvance = size * style.lineHeight;
  const inset = bleedOf(style) + (style.box?.padding ?? 0);
  const width = Math.ceil(contentWidth + inset * 2);
  const height = Math.ceil(rows.length * lineAdvance + inset * 2);
  // The letters' extent (ascender to descender) sits in the middle of each line's advance.
  const firstBaseline = inset + (lineAdvance - (font.ascent + font.descent) * size) / 2 + font.ascent * size;
  const anchor = style.align === 'left' ? inset : style.align === 'center' ? inset + contentWidth / 2 : inset + contentWidth;
  const lines = rows.map((text, i) => ({ text, x: round(anchor), baseline: round(firstBaseline + i * lineAdvance), width: round(widths[i]) }));
  const bleed = bleedOf(style);
  const box = style.box ? { x: bleed, y: bleed, width: width - bleed * 2, height: height - bleed * 2 } : null;
  return { width, height, lines, box };
}

/** Greedy word wrap; a word wider than the line is broken between characters. */
function wrap(paragraph: string, maxWidth: number, measure: (text: string) => number): string[] {
  const words = paragraph.split(' ');
  const out: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (measure(candidate) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line !== '') out.push(line);
    line = '';
    if (measure(word) <= maxWidth) {
      line = word;
      continue;
    }
    for (const char of Array.from(word)) {
      if (line !== '' && measure(line + char) > maxWidth) {
        out.push(line);
        line = '';
      }
      line += char;
    }
  }
  out.push(line);
  return out;
}

const round = (v: number): number => Math.round(v * 100) / 100;
