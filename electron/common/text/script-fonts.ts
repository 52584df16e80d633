import type { FontWeight } from '../composition/font-weight';

/**
 * Fonts for the scripts the bundled families lack: Arabic (Noto Sans Arabic, static regular and bold),
 * Chinese and Japanese (Noto Sans SC) and Korean (Noto Sans KR), the last two cut by the font's
 * publisher into ~100 files of a few thousand characters each. All come from npm (@fontsource) as WOFF2, which the host unpacks to
 * TrueType on first use (resvg reads no WOFF2); a line asks only for the files its characters need,
 * so a Chinese title loads a few hundred kilobytes, not the whole 4.5 MB family.
 *
 * resvg 2.6 draws one line reliably with one family: mixing families inside a line either drops the
 * line (Arabic beside another family) or falls back only while glyph counts match. So a line that has
 * Arabic is drawn entirely in Noto Sans Arabic, a line with Hangul entirely in Noto Sans KR, another
 * line with CJK entirely in Noto Sans SC (both have Latin letters and digits of their own, and kana),
 * and any other line in the element's family.
 */
export type ScriptFace = 'arabic' | 'cjk' | 'korean';
/** The faces cut into subsets by character. */
export type SubsetFace = Exclude<ScriptFace, 'arabic'>;

export const SCRIPT_FAMILIES: Record<ScriptFace, string> = {
  arabic: 'Noto Sans Arabic',
  cjk: 'Noto Sans SC',
  korean: 'Noto Sans KR',
};

const ARABIC = /[\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const HANGUL = /\p{Script=Hangul}/u;
const STRONG_RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
const STRONG = /\p{L}/u;

/** The script face a line needs, or null when the element's own family draws it. */
export function scriptFaceOf(line: string): ScriptFace | null {
  if (ARABIC.test(line)) return 'arabic';
  if (HANGUL.test(line)) return 'korean';
  if (CJK.test(line)) return 'cjk';
  return null;
}

/** A paragraph runs right to left when its first strong letter is right-to-left (as the Unicode bidi algorithm decides). */
export function isRightToLeft(paragraph: string): boolean {
  for (const char of paragraph) {
    if (STRONG_RTL.test(char)) return true;
    if (STRONG.test(char)) return false;
  }
  return false;
}

/**
 * The font files a line drawn in `face` needs. Arabic: one file per weight. CJK: the files whose
 * character ranges hold the line's characters (the publisher's own table, `ranges`), always with the
 * file that has Latin letters, digits and common punctuation.
 */
export function scriptFilesFor(face: ScriptFace, line: string, weight: FontWeight, ranges: CjkRanges | null): string[] {
  if (face === 'arabic' || !ranges) return [arabicFile(weight)];
  const files = new Set<string>([subsetFile(face, ranges.basic)]);
  for (const char of line) {
    const subset = ranges.subsetOf(char.codePointAt(0)!);
    if (subset !== null) files.add(subsetFile(face, subset));
  }
  return [...files];
}

export const arabicFile = (weight: FontWeight): string => `noto-sans-arabic-arabic-${weight}-normal.woff2`;
const SUBSET_PREFIX: Record<SubsetFace, string> = { cjk: 'noto-sans-sc', korean: 'noto-sans-kr' };
export const subsetFile = (face: SubsetFace, subset: string): string =>
  `${SUBSET_PREFIX[face]}-${subset}-wght-normal.woff2`;
/** A face's subsets as one set, as a project records them. */
export const subsetFileSet = (face: SubsetFace): string => subsetFile(face, '*');

/** Every script font file name a caller may ask for (the host checks requests against this). */
export const SCRIPT_FONT_FILE =
  /^(noto-sans-arabic-arabic-(400|700)-normal|noto-sans-(sc|kr)-\d{1,3}-wght-normal)\.woff2$/;

/** Where each CJK character lives: built from the publisher's unicode.json ({"[12]": "U+4e00-4e3f,…"}). */
export interface CjkRanges {
  /** The subset with Latin letters and CJK punctuation (the publisher's largest, "119"). */
  basic: string;
  subsetOf(codePoint: number): string | null;
}

export function cjkRangesOf(table: Record<string, string>): CjkRanges {
  const spans: { from: number; to: number; subset: string }[] = [];
  for (const [key, list] of Object.entries(table)) {
    const subset = key.replace(/^\[|\]$/g, '');
    if (!/^\d+$/.test(subset)) continue;
    for (const part of list.split(',')) {
      const [from, to] = part
        .trim()
        .replace(/^U\+/i, '')
        .split('-')
        .map((hex) => parseInt(hex, 16));
      spans.push({ from, to: to ?? from, subset });
    }
  }
  spans.sort((a, b) => a.from - b.from);
  const basic = spans.find((s) => s.from <= 0x41 && 0x41 <= s.to)?.subset ?? '119';
  return {
    basic,
    subsetOf(codePoint) {
      let lo = 0;
      let hi = spans.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (spans[mid].to < codePoint) lo = mid + 1;
        else if (spans[mid].from > codePoint) hi = mid - 1;
        else return spans[mid].subset;
      }
      return null;
    },
  };
}

const subsetRanges = new Map<SubsetFace, Promise<CjkRanges>>();

/** A face's range table, imported only when a line first needs it (~80 kB of JSON the page otherwise never loads). */
export function loadSubsetRanges(face: SubsetFace): Promise<CjkRanges> {
  let ranges = subsetRanges.get(face);
  if (!ranges) {
    // Each import names its package outright, so bundlers split each table into a file of its own.
    const table =
      face === 'cjk'
        ? import('@fontsource-variable/noto-sans-sc/unicode.json')
        : import('@fontsource-variable/noto-sans-kr/unicode.json');
    ranges = table.then((m) => cjkRangesOf((m as { default: Record<string, string> }).default));
    subsetRanges.set(face, ranges);
  }
  return ranges;
}

/**
 * What a project records for the script fonts its text uses (beside BUNDLED_FONTS' records). Arabic:
 * the file and its SHA-256. CJK and Korean: a line's subsets vary with its characters, so the record names the
 * set and fingerprints all of it — SHA-256 over "name sha256\n" of every subset file, sorted by name
 * (a unit test computes them from the installed files and holds these to them).
 */
export const SCRIPT_FONT_RECORDS = {
  arabic: {
    400: {
      family: SCRIPT_FAMILIES.arabic,
      weight: 400,
      file: arabicFile(400),
      sha256: '4e2ca0745c908761dc5c5db951662873887c59366fa1a5693ad22c0864abf1bd',
    },
    700: {
      family: SCRIPT_FAMILIES.arabic,
      weight: 700,
      file: arabicFile(700),
      sha256: 'd2bf5ac762d07f769e4e644a1f919649317cb5b62e20ab9ae02918862627b723',
    },
  },
  cjk: {
    family: SCRIPT_FAMILIES.cjk,
    file: subsetFileSet('cjk'),
    sha256: 'e821d7177e20ac35c529afc03e1347e73b70b11db10ba7d030a4d378cec228a4',
  },
  korean: {
    family: SCRIPT_FAMILIES.korean,
    file: subsetFileSet('korean'),
    sha256: '69d2fd260cdede117434515a59312b202e1ef4445e832f7ba763f44e79b07e8a',
  },
} as const;

/** The script font records a set of styles needs, each once: Arabic, then CJK, then Korean, each by weight. */
export function scriptFontRecordsOf(
  styles: readonly { content: string; fontWeight: FontWeight }[],
): { family: string; weight: FontWeight; file: string; sha256: string }[] {
  const used = new Set<string>();
  for (const style of styles)
    for (const paragraph of style.content.split(/\r?\n/)) {
      const face = scriptFaceOf(paragraph);
      if (face) used.add(`${face} ${style.fontWeight}`);
    }
  const records = [];
  for (const weight of [400, 700] as const)
    if (used.has(`arabic ${weight}`)) records.push(SCRIPT_FONT_RECORDS.arabic[weight]);
  for (const face of ['cjk', 'korean'] as const)
    for (const weight of [400, 700] as const)
      if (used.has(`${face} ${weight}`)) records.push({ ...SCRIPT_FONT_RECORDS[face], weight });
  return records;
}
