import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TEXT_STYLE, type TextStyle } from '@common/composition';
import { bidiRuns } from '@common/text/bidi-runs';
import { inkBox, nodeRasteriser } from './text-node';

// Noto Sans Arabic has Arabic letters and the space only: its "font" for everything else is an empty box.
const arabicOnly = (char: string): boolean => /[\u0600-\u06ff]/u.test(char);
const style: TextStyle = {
  ...DEFAULT_TEXT_STYLE,
  fontFamily: 'Source Sans 3',
  fontWeight: 400,
  fontSize: 48,
  shadow: null,
  outline: null,
  box: null,
  align: 'left',
  wrapWidth: null,
};

describe('runs of a line that mixes Arabic with Latin (bidi order)', () => {
  it('puts an embedded Latin name and its number, read left to right, where the bidi algorithm does', () => {
    expect(bidiRuns('جرّب iPhone 15 اليوم', true, arabicOnly)).toEqual([
      { text: 'اليوم', script: true },
      { text: ' ', script: false },
      { text: 'iPhone 15', script: false },
      { text: ' ', script: false },
      { text: 'جرّب', script: true },
    ]);
    // In a left-to-right paragraph the Arabic words keep their own right-to-left order between the Latin ones.
    expect(bidiRuns('Visit مرحبا بكم today', false, arabicOnly).map((r) => r.text)).toEqual([
      'Visit ',
      'بكم',
      ' ',
      'مرحبا',
      ' today',
    ]);
  });

  it('keeps punctuation and numbers with the side the algorithm gives them', () => {
    // The full stop ends the right-to-left paragraph: it sits at its left end, after the number reads "2026".
    expect(bidiRuns('عام 2026.', true, arabicOnly).map((r) => r.text)).toEqual(['.', '2026', ' ', 'عام']);
    // A bracket in a right-to-left stretch is drawn mirrored.
    expect(bidiRuns('(مرحبا)', true, arabicOnly).map((r) => r.text)).toEqual(['(', 'مرحبا', ')']);
  });
});

describe('drawing a line that mixes Arabic with Latin', () => {
  const rasteriser = nodeRasteriser();

  /** The picture of `content`, its ink box, and its alpha at a point of the ink. */
  async function draw(content: string, extra: Partial<TextStyle> = {}) {
    const s = { ...style, content, ...extra };
    const layout = await rasteriser.layout(s);
    const picture = await rasteriser.rasterise(s, layout);
    return { layout, picture, ink: inkBox(picture.pixels, picture.width, picture.height)! };
  }

  /** Alpha of a picture's ink, cut `width` columns from its left ink edge and aligned on the top of the ink. */
  function inkFrom(
    p: { picture: { pixels: Uint8Array; width: number }; ink: { left: number; top: number; bottom: number } },
    width: number,
    top: number,
    height: number,
  ): number[] {
    const out: number[] = [];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        out.push(p.picture.pixels[((top + y) * p.picture.width + p.ink.left + x) * 4 + 3] ?? 0);
    return out;
  }

  it("draws the Latin brand name and digits in the element's font, at the left of a right-to-left line", async () => {
    // "Try the iPhone 15": the Latin name ends the right-to-left sentence, so it is drawn at its left end.
    const mixed = await draw('جرّب iPhone 15');
    const latin = await draw('iPhone 15');
    mkdirSync(join('test-artifacts', 'text'), { recursive: true });
    writeFileSync(
      join('test-artifacts', 'text', 'mixed-arabic-latin.png'),
      (
        await draw('جرّب iPhone 15 اليوم\nزوروا example.com الآن', {
          box: { colour: '#1d3557', opacity: 0.85, padding: 16, radius: 8 },
        })
      ).picture.png,
    );
    // The left end of the right-to-left line is the Latin run: its ink matches "iPhone 15" drawn alone, pixel for pixel
    // (the two baselines are the same, so the ink of the shared letters starts on the same row).
    const width = latin.ink.right - latin.ink.left + 1;
    const height = latin.ink.bottom - latin.ink.top + 1;
    const got = inkFrom(mixed, width, latin.ink.top, height);
    const want = inkFrom(latin, width, latin.ink.top, height);
    // The run starts at a fraction of a pixel, so edges blur differently: compare the letters' solid cores.
    const solid = (a: number): boolean => a > 127;
    const either = got.filter((a, i) => solid(a) || solid(want[i])).length;
    const differing = got.filter((a, i) => solid(a) !== solid(want[i])).length;
    expect(differing / either).toBeLessThan(0.15);
    // And the Arabic words are drawn to its right, inside the picture.
    expect(mixed.ink.right - mixed.ink.left).toBeGreaterThan(width + style.fontSize);
    expect(mixed.ink.right).toBeLessThan(mixed.picture.width);
  });

  it('wraps a mixed line at the width, each line still drawn in both fonts inside the box', async () => {
    const content = 'احصل على iPhone 15 Pro اليوم من متجر Apple بسعر 999 دولار';
    const { layout, picture, ink } = await draw(content, { wrapWidth: 420, align: 'left' });
    expect(layout.lines.length).toBeGreaterThan(1);
    for (const line of layout.lines) {
      expect(line.width, line.text).toBeLessThanOrEqual(420);
      expect(
        line.runs?.some((r) => r.face === null && /[A-Za-z0-9]/.test(r.text)),
        line.text,
      ).toBe(true);
      expect(
        line.runs?.some((r) => r.face === 'arabic'),
        line.text,
      ).toBe(true);
    }
    // Right-to-left and aligned to its start: every line ends at the box's right edge, and nothing is drawn outside it.
    expect(ink.left).toBeGreaterThanOrEqual(0);
    expect(ink.right).toBeLessThan(picture.width);
    expect(layout.lines.every((l) => l.anchor === 'end')).toBe(true);
  });
});
