import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED_FONTS,
  DEFAULT_TEXT_STYLE,
  FONT_FAMILIES,
  fontFileOf,
  TEXT_PRESETS,
  textStyleProblem,
  type TextStyle,
} from '@common/composition';
import { layoutText, type FontMeasure } from '@common/text/text-layout';
import { TextStyleError } from '@common/text/text-rasteriser';
import { FONTS_DIR, inkBox, nodeRasteriser } from './text-node';

const plain: TextStyle = { ...DEFAULT_TEXT_STYLE, shadow: null, content: 'Hello' };

describe('text rasteriser (resvg, Node)', () => {
  const rasteriser = nodeRasteriser();

  it('draws the text inside its natural box on a transparent picture', async () => {
    const layout = await rasteriser.layout(plain);
    const drawn = await rasteriser.rasterise(plain, layout);
    expect([drawn.width, drawn.height]).toEqual([layout.width, layout.height]);
    expect(drawn.png.subarray(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
    const ink = inkBox(drawn.pixels, drawn.width, drawn.height);
    expect(ink).not.toBeNull();
    // Corners stay transparent; the letters span most of the width the font measured for them.
    expect(drawn.pixels[3]).toBe(0);
    expect(ink!.right - ink!.left).toBeGreaterThan(layout.width * 0.8);
    // White text: every fully inked pixel is white.
    for (let i = 0; i < drawn.pixels.length; i += 4) if (drawn.pixels[i + 3] === 255) expect(drawn.pixels[i]).toBe(255);
  });

  it('gives the same pixels for the same element every time, and scales with the box', async () => {
    const layout = await rasteriser.layout(plain);
    const a = await rasteriser.rasterise(plain, layout);
    const b = await nodeRasteriser().rasterise(plain, layout);
    expect(Buffer.from(a.pixels).equals(Buffer.from(b.pixels))).toBe(true);
    const double = await rasteriser.rasterise(plain, { width: layout.width * 2, height: layout.height * 2 });
    const inkA = inkBox(a.pixels, a.width, a.height)!;
    const inkB = inkBox(double.pixels, double.width, double.height)!;
    expect(Math.abs(inkB.right - inkB.left - 2 * (inkA.right - inkA.left))).toBeLessThanOrEqual(3);
  });

  it('draws the background box with its colour and opacity', async () => {
    const style: TextStyle = { ...TEXT_PRESETS['lower-third'].style };
    const layout = await rasteriser.layout(style);
    const drawn = await rasteriser.rasterise(style, layout);
    // Top middle, above the letters: the box colour (#1d3557) at 85% opacity (resvg's pixels are premultiplied).
    const i = (4 * drawn.width + Math.round(drawn.width / 2)) * 4;
    const alpha = Math.round(0.85 * 255);
    const expected = [0x1d, 0x35, 0x57].map((c) => Math.round((c * alpha) / 255));
    const got = Array.from(drawn.pixels.subarray(i, i + 4));
    expect(got[3]).toBe(alpha);
    got.slice(0, 3).forEach((c, k) => expect(Math.abs(c - expected[k])).toBeLessThanOrEqual(1));
  });

  it('refuses empty text and an unknown font with the reason', async () => {
    await expect(rasteriser.rasterise({ ...plain, content: '  ' }, { width: 10, height: 10 })).rejects.toThrow(
      /text is empty/,
    );
    await expect(
      rasteriser.rasterise({ ...plain, fontFamily: 'Comic Sans' }, { width: 10, height: 10 }),
    ).rejects.toThrow(TextStyleError);
    await expect(rasteriser.layout({ ...plain, fontFamily: 'Comic Sans' })).rejects.toThrow(
      /"Comic Sans" \(bold\) is not one this studio has; choose one of Source Sans 3/,
    );
  });

  it('records the true fingerprint of every bundled font, each with its licence beside it', () => {
    for (const font of BUNDLED_FONTS) {
      expect(
        createHash('sha256')
          .update(readFileSync(join(FONTS_DIR, font.file)))
          .digest('hex'),
        font.file,
      ).toBe(font.sha256);
    }
    expect(readFileSync(join(FONTS_DIR, 'SourceSans3-LICENSE.md'), 'utf8')).toMatch(/SIL Open Font License/);
    expect(readFileSync(join(FONTS_DIR, 'DejaVu-LICENSE.txt'), 'utf8')).toMatch(/Bitstream Vera/);
  });

  it("draws italic in the family's own italic, inside its box, and says when a family has no such face", async () => {
    const upright: TextStyle = { ...plain, content: 'Half a shelf' };
    const italic: TextStyle = { ...upright, italic: true };
    for (const family of FONT_FAMILIES) {
      const layout = await rasteriser.layout({ ...italic, fontFamily: family });
      const slanted = await rasteriser.rasterise({ ...italic, fontFamily: family }, layout);
      const straight = await rasteriser.rasterise({ ...upright, fontFamily: family }, layout);
      expect(Buffer.from(slanted.pixels).equals(Buffer.from(straight.pixels)), family).toBe(false);
      // The lean of the last letter stays inside the picture: no ink in the outermost column.
      const ink = inkBox(slanted.pixels, slanted.width, slanted.height)!;
      expect(ink.right, family).toBeLessThan(slanted.width - 1);
      expect(fontFileOf(family, 700, true)?.file, family).toMatch(/It|Italic|Oblique/);
    }
    expect(textStyleProblem({ ...italic, fontFamily: 'Comic Sans' })).toMatch(/"Comic Sans" \(bold italic\)/);
  });
});

describe('text layout', () => {
  // Every character 10 px wide at size 20: wrapping is easy to follow.
  const mono: FontMeasure = { width: (text, size) => text.length * size * 0.5, ascent: 0.8, descent: 0.2 };
  const style: TextStyle = {
    ...plain,
    fontSize: 20,
    lineHeight: 1.5,
    content: 'one two three four',
    shadow: null,
    outline: null,
    box: null,
  };

  it('wraps at the width, breaks an over-long word, and keeps line breaks', () => {
    expect(layoutText({ ...style, wrapWidth: 100 }, mono).lines.map((l) => l.text)).toEqual(['one two', 'three four']);
    expect(layoutText({ ...style, content: 'abcdefghijkl', wrapWidth: 50 }, mono).lines.map((l) => l.text)).toEqual([
      'abcde',
      'fghij',
      'kl',
    ]);
    expect(layoutText({ ...style, content: 'a\n\nb' }, mono).lines.map((l) => l.text)).toEqual(['a', '', 'b']);
  });

  it('sizes the box from the lines, the padding and the room effects need, and anchors by alignment', () => {
    const boxed = layoutText(
      { ...style, content: 'abcd\nab', box: { colour: '#000000', opacity: 1, padding: 10, radius: 0 }, align: 'right' },
      mono,
    );
    expect([boxed.width, boxed.height]).toEqual([40 + 20, 2 * 30 + 20]);
    expect(boxed.lines.map((l) => l.x)).toEqual([50, 50]);
    // Baselines: the 20 px letters centred in each 30 px line.
    expect(boxed.lines.map((l) => l.baseline)).toEqual([10 + 5 + 16, 10 + 35 + 16]);
    const outlined = layoutText({ ...style, content: 'ab', outline: { colour: '#000000', width: 6 } }, mono);
    expect(outlined.width).toBe(20 + 2 * 3);
  });
});
