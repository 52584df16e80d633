/**
 * A line that mixes a script font with letters it lacks (Arabic beside a brand name, digits or
 * punctuation: Noto Sans Arabic has Arabic letters and the space only) is drawn as runs, each in the
 * font that has its glyphs, placed one after another in visual order. resvg 2.6 cannot mix families
 * inside one line, so the runs are separate texts; this module decides what the runs are and their order.
 *
 * The order follows the Unicode bidi algorithm (UAX #9) for text without explicit embedding controls:
 * weak types (W2, W4, W5, W7), neutrals (N1, N2), implicit levels (I1, I2) and reordering (L2). The
 * character classes come from Unicode's script and category properties rather than the full bidi class
 * table, which is enough for the text a caption holds (no bidi control characters are honoured).
 */
export interface BidiRun {
  text: string;
  /** Drawn in the script font (true) or the element's family (false). */
  script: boolean;
}

type Kind = 'L' | 'R' | 'AN' | 'EN' | 'ES' | 'ET' | 'CS' | 'WS' | 'ON' | 'NSM';

const ARABIC_DIGIT = /[\u0660-\u0669\u06f0-\u06f9]/u;
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const DIGIT = /\p{Nd}/u;
const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
};

function kindOf(char: string): Kind {
  if (MARK.test(char)) return 'NSM';
  if (ARABIC_DIGIT.test(char)) return 'AN';
  if (char === '\u060c') return 'CS';
  if (RTL_LETTER.test(char)) return 'R';
  if (DIGIT.test(char)) return 'EN';
  if (LETTER.test(char)) return 'L';
  if (/\s/u.test(char)) return 'WS';
  if (char === '+' || char === '-') return 'ES';
  if (/[.,:/\u00a0]/u.test(char)) return 'CS';
  if (/[#$%°\u00a2-\u00a5\u20a0-\u20cf\u2030-\u2034]/u.test(char)) return 'ET';
  return 'ON';
}

/** Embedding level of each code point of `line` in a paragraph of direction `rtl`. */
export function bidiLevels(chars: readonly string[], rtl: boolean): number[] {
  const base = rtl ? 'R' : 'L';
  const kinds = chars.map(kindOf);
  // W1: a combining mark (a shadda, an accent) takes the type of the letter it sits on.
  kinds.forEach((k, i) => {
    if (k === 'NSM') kinds[i] = i === 0 ? base : kinds[i - 1];
  });
  // W2: a European number after Arabic text is an Arabic number.
  let strong: 'L' | 'R' = base;
  kinds.forEach((k, i) => {
    if (k === 'L' || k === 'R') strong = k;
    else if (k === 'EN' && strong === 'R') kinds[i] = 'AN';
  });
  // W4: one separator between two numbers of a kind joins them.
  for (let i = 1; i < kinds.length - 1; i++) {
    const [a, b] = [kinds[i - 1], kinds[i + 1]];
    if (kinds[i] === 'ES' && a === 'EN' && b === 'EN') kinds[i] = 'EN';
    if (kinds[i] === 'CS' && a === b && (a === 'EN' || a === 'AN')) kinds[i] = a;
  }
  // W5: currency and percent signs next to a European number belong to it.
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== 'ET') continue;
    let j = i;
    while (j < kinds.length && kinds[j] === 'ET') j++;
    if (kinds[i - 1] === 'EN' || kinds[j] === 'EN') for (let k = i; k < j; k++) kinds[k] = 'EN';
    i = j - 1;
  }
  // W7: a European number after left-to-right text (or at the start of a left-to-right paragraph) reads as it.
  strong = base;
  kinds.forEach((k, i) => {
    if (k === 'L' || k === 'R') strong = k;
    else if (k === 'EN' && strong === 'L') kinds[i] = 'L';
  });
  // N1, N2: a run of neutrals between two sides of one direction takes it (numbers count as right-to-left), else the paragraph's.
  const direction = (k: Kind | undefined): 'L' | 'R' | null =>
    k === 'L' ? 'L' : k === 'R' || k === 'AN' || k === 'EN' ? 'R' : null;
  const resolved: ('L' | 'R' | 'AN' | 'EN')[] = [];
  for (let i = 0; i < kinds.length;) {
    const own = kinds[i];
    if (direction(own)) {
      resolved.push(own as 'L' | 'R' | 'AN' | 'EN');
      i++;
      continue;
    }
    let j = i;
    while (j < kinds.length && !direction(kinds[j])) j++;
    const before = i === 0 ? base : direction(kinds[i - 1]);
    const after = j === kinds.length ? base : direction(kinds[j]);
    const side = before === after ? before! : base;
    for (let k = i; k < j; k++) resolved.push(side);
    i = j;
  }
  // I1, I2.
  return resolved.map((k) => (rtl ? (k === 'R' ? 1 : 2) : k === 'L' ? 0 : k === 'R' ? 1 : 2));
}

/**
 * The runs of `line` in visual order, left to right. `inScript` says whether the script font has a
 * character; a run holds characters of one font and one level. Runs that read right to left and are
 * drawn in the element's family hold only neutrals (punctuation, spaces): they are reversed here, with
 * brackets mirrored, since the family's text is drawn left to right. Script runs stay in logical order:
 * resvg orders and joins the letters of each itself.
 */
export function bidiRuns(line: string, rtl: boolean, inScript: (char: string) => boolean): BidiRun[] {
  const chars = Array.from(line);
  const levels = bidiLevels(chars, rtl);
  const runs: { chars: string[]; level: number; script: boolean }[] = [];
  chars.forEach((char, i) => {
    // A space belongs to the family, so words of the script are drawn one by one and a run never starts or ends in a space resvg would place by its own rules.
    const script = !/\s/u.test(char) && inScript(char);
    const last = runs[runs.length - 1];
    if (last && last.level === levels[i] && last.script === script) last.chars.push(char);
    else runs.push({ chars: [char], level: levels[i], script });
  });
  // L2: from the highest level down to the lowest odd one, reverse every stretch at that level or above.
  const highest = Math.max(0, ...runs.map((r) => r.level));
  const lowestOdd = Math.min(...runs.map((r) => r.level).filter((l) => l % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length;) {
      if (runs[i].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < runs.length && runs[j].level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.map(({ chars: cs, level, script }) => ({
    script,
    text:
      level % 2 === 1 && !script
        ? cs
            .map((c) => MIRRORED[c] ?? c)
            .reverse()
            .join('')
        : cs.join(''),
  }));
}
