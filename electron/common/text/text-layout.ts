import type { TextStyle } from '../composition/text-style';
import { isRightToLeft, scriptFaceOf, type ScriptFace } from './script-fonts';

/**
 * Where every line of a text element goes, from the font's own measurements. The rasteriser draws
 * exactly this, so the canvas, the preview and the result agree on line breaks and size.
 */
export interface FontMeasure {
  /** Advance width of `text` at `size` pixels per em, kerning included (shaped, for lines in a script face). */
  width(text: string, size: number): number;
  /** Ascender above and descender below the baseline, as fractions of the em (both positive). */
  ascent: number;
  descent: number;
  /**
   * A line that needs more than one font (Arabic beside Latin letters or digits), as runs in visual order,
   * each with its width; null when one font draws the whole line.
   */
  runs?(text: string, size: number, rtl: boolean): MeasuredRun[] | null;
}

export interface MeasuredRun {
  text: string;
  /** The font the run is drawn in (null: the element's family). */
  face: ScriptFace | null;
  width: number;
  /** How far right of its slot the run's text starts, so its ink sits inside the slot. */
  shift: number;
}

/** A run placed on its line: `x` is where its text starts (anchored at its left). */
export interface PlacedRun {
  text: string;
  face: ScriptFace | null;
  x: number;
}

export interface TextLine {
  text: string;
  /** The anchor the line is drawn at (its left, centre or right, by the alignment) and its baseline. */
  x: number;
  baseline: number;
  width: number;
  /** The script font the line is drawn in (null: the element's family), and how its anchor reads. */
  face: ScriptFace | null;
  anchor: 'start' | 'middle' | 'end';
  /** For a line of several fonts, its runs left to right; null when the line is one text. */
  runs: PlacedRun[] | null;
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
  const shadow = style.shadow
    ? style.shadow.blur * 1.5 + Math.max(Math.abs(style.shadow.offsetX), Math.abs(style.shadow.offsetY))
    : 0;
  // An italic's last letter leans past its advance (an "f" or "l" by up to about a seventh of the em).
  const slant = style.italic ? style.fontSize * 0.15 : 0;
  return Math.ceil(Math.max(outline, shadow) + slant);
}

export function layoutText(style: TextStyle, font: FontMeasure): TextLayout {
  const size = style.fontSize;
  const measure = (text: string): number => font.width(text, size);
  const rows = style.content.split(/\r?\n/).flatMap((paragraph) => {
    const rtl = isRightToLeft(paragraph);
    const texts = style.wrapWidth === null ? [paragraph] : wrap(paragraph, style.wrapWidth, measure);
    return texts.map((text) => ({ text, rtl }));
  });
  const widths = rows.map((row) => measure(row.text));
  const contentWidth = style.wrapWidth ?? Math.max(1, ...widths);
  const lineAdvance = size * style.lineHeight;
  const inset = bleedOf(style) + (style.box?.padding ?? 0);
  const width = Math.ceil(contentWidth + inset * 2);
  const height = Math.ceil(rows.length * lineAdvance + inset * 2);
  // The letters' extent (ascender to descender) sits in the middle of each line's advance.
  const firstBaseline = inset + (lineAdvance - (font.ascent + font.descent) * size) / 2 + font.ascent * size;
  const lines = rows.map(({ text, rtl }, i) => {
    // Left and right are the paragraph's start and end: a right-to-left paragraph aligned "left" starts at the right.
    const side = style.align === 'center' ? 'center' : (style.align === 'left') !== rtl ? 'left' : 'right';
    const x = side === 'left' ? inset : side === 'center' ? inset + contentWidth / 2 : inset + contentWidth;
    const anchor: TextLine['anchor'] = side === 'left' ? 'start' : side === 'center' ? 'middle' : 'end';
    const measured = font.runs?.(text, size, rtl) ?? null;
    let runs: PlacedRun[] | null = null;
    if (measured) {
      let left = side === 'left' ? x : side === 'center' ? x - widths[i] / 2 : x - widths[i];
      runs = [];
      for (const run of measured) {
        if (run.text.trim() !== '') runs.push({ text: run.text, face: run.face, x: round(left + run.shift) });
        left += run.width;
      }
    }
    return {
      text,
      x: round(x),
      baseline: round(firstBaseline + i * lineAdvance),
      width: round(widths[i]),
      face: scriptFaceOf(text),
      anchor,
      runs,
    } satisfies TextLine;
  });
  const bleed = bleedOf(style);
  const box = style.box ? { x: bleed, y: bleed, width: width - bleed * 2, height: height - bleed * 2 } : null;
  return { width, height, lines, box };
}

/**
 * Greedy wrap at the places a line may break: between words (spaces stay with the word before), and
 * between CJK words or characters as Intl.Segmenter finds them, never before closing punctuation nor
 * after opening punctuation. A piece wider than the line is broken between characters.
 */
function wrap(paragraph: string, maxWidth: number, measure: (text: string) => number): string[] {
  const out: string[] = [];
  let line = '';
  const push = (): void => {
    out.push(line.trimEnd());
    line = '';
  };
  for (const piece of breakablePieces(paragraph)) {
    if (measure((line + piece).trimEnd()) <= maxWidth) {
      line += piece;
      continue;
    }
    if (line.trim() !== '') push();
    else line = '';
    if (measure(piece.trimEnd()) <= maxWidth) {
      line = piece;
      continue;
    }
    for (const char of Array.from(piece)) {
      if (line !== '' && measure((line + char).trimEnd()) > maxWidth) push();
      line += char;
    }
  }
  out.push(line.trimEnd());
  return out;
}

const NO_BREAK_BEFORE =
  /^[\s,.;:!?)\]}%\u3001\u3002\uff0c\uff0e\uff01\uff1f\uff1a\uff1b\uff09\u300d\u300f\u3011\u3009\u300b\u201d\u2019\u30fc\u3005\u309d\u309e\u30fd\u30fe\u3041\u3043\u3045\u3047\u3049\u3063\u3083\u3085\u3087\u30a1\u30a3\u30a5\u30a7\u30a9\u30c3\u30e3\u30e5\u30e7\u060c\u061b\u061f]/u;
const NO_BREAK_AFTER = /[(\[{\uff08\u300c\u300e\u3010\u3008\u300a\u201c\u2018]$/u;

let segmenter: Intl.Segmenter | null = null;

/** The paragraph cut where a line may end; joined back they are the paragraph. */
export function breakablePieces(paragraph: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const pieces: string[] = [];
  for (const { segment } of segmenter.segment(paragraph)) {
    const last = pieces.length - 1;
    if (
      last >= 0 &&
      (NO_BREAK_BEFORE.test(segment) || NO_BREAK_AFTER.test(pieces[last]) || !breaksBetween(pieces[last], segment))
    )
      pieces[last] += segment;
    else pieces.push(segment);
  }
  return pieces;
}

/** Between two segments of a script that separates words by spaces, only a space is a place to break. */
function breaksBetween(before: string, after: string): boolean {
  return /\s$/u.test(before) || CLOSE_UP.test(before.slice(-1)) || CLOSE_UP.test(after[0]);
}

/** Characters of scripts that set text without spaces: a line may end next to any of them (Korean spaces its words, and breaks at the spaces). */
const CLOSE_UP = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

const round = (v: number): number => Math.round(v * 100) / 100;
