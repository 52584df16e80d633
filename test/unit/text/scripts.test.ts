import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setSceneCaptions } from '@common/captions/caption-ops';
import {
  addTextElement,
  createProject,
  DEFAULT_TEXT_STYLE,
  withFontRecords,
  type TextStyle,
} from '@common/composition';
import { breakablePieces } from '@common/text/text-layout';
import {
  isRightToLeft,
  SCRIPT_FONT_FILE,
  SCRIPT_FONT_RECORDS,
  scriptFaceOf,
  subsetFile,
} from '@common/text/script-fonts';
import { scriptFontPath } from '../../../electron/services/text/font-files';
import { inkBox, nodeRasteriser } from './text-node';

const plain: TextStyle = { ...DEFAULT_TEXT_STYLE, shadow: null, fontWeight: 400, fontSize: 48, colour: '#000000' };

describe('scripts beyond Latin', () => {
  const rasteriser = nodeRasteriser();

  /** The alpha channel of one line drawn at its natural size: what the glyphs look like. */
  async function alphaOf(content: string, style: TextStyle = plain): Promise<Buffer> {
    const s = { ...style, content };
    const drawn = await rasteriser.rasterise(s, await rasteriser.layout(s));
    return Buffer.from(drawn.pixels.filter((_, i) => i % 4 === 3));
  }

  it("knows each line's script face and direction", () => {
    expect(scriptFaceOf('مرحبا بالعالم')).toBe('arabic');
    expect(scriptFaceOf('你好，世界')).toBe('cjk');
    expect(scriptFaceOf('こんにちは')).toBe('cjk');
    expect(scriptFaceOf('Hello Привет Γειά')).toBeNull();
    expect(isRightToLeft('مرحبا World')).toBe(true);
    expect(isRightToLeft('World مرحبا')).toBe(false);
    expect(isRightToLeft('123 مرحبا')).toBe(true);
  });

  it('draws a Chinese caption with real glyphs: ink in the box, and different characters look different (no missing-glyph boxes)', async () => {
    const style: TextStyle = { ...plain, content: '你好，世界！' };
    const layout = await rasteriser.layout(style);
    const drawn = await rasteriser.rasterise(style, layout);
    const ink = inkBox(drawn.pixels, drawn.width, drawn.height);
    expect(ink).not.toBeNull();
    // Six full-width characters at 48 px are about 6 em wide; the ink spans most of it.
    expect(layout.lines[0].width).toBeGreaterThan(6 * 48 * 0.9);
    expect(ink!.right - ink!.left).toBeGreaterThan(layout.lines[0].width * 0.8);
    // A font without these characters draws every one as the same .notdef box.
    const [zhong, guo, ri] = await Promise.all(['中', '国', '日'].map((c) => alphaOf(c)));
    expect(zhong.equals(guo)).toBe(false);
    expect(guo.equals(ri)).toBe(false);
    const [hira, kata] = await Promise.all(['あ', 'ア'].map((c) => alphaOf(c)));
    expect(hira.equals(kata)).toBe(false);
  });

  it('draws Korean in its own font and breaks it at the spaces between words', async () => {
    expect(scriptFaceOf('안녕하세요 世界')).toBe('korean');
    const [an, nyeong, ha] = await Promise.all(['안', '녕', '한'].map((c) => alphaOf(c)));
    expect(an.equals(nyeong)).toBe(false);
    expect(nyeong.equals(ha)).toBe(false);
    const content = '안녕하세요 한국어 자막입니다 오늘 날씨가 좋네요';
    const layout = await rasteriser.layout({ ...plain, content, wrapWidth: 48 * 7 });
    expect(layout.lines.length).toBeGreaterThan(1);
    expect(layout.lines.map((l) => l.text).join(' ')).toBe(content);
  });

  it('breaks a Japanese line between words without spaces, never before closing punctuation, and keeps every character', async () => {
    const content = 'こんにちは、日本語のテキストを表示します。';
    const style: TextStyle = { ...plain, content, wrapWidth: 48 * 8 };
    const layout = await rasteriser.layout(style);
    const lines = layout.lines.map((l) => l.text);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe(content);
    for (const line of layout.lines) expect(line.width).toBeLessThanOrEqual(48 * 8);
    // Each line ends where Intl.Segmenter allows a break: at the end of one of its segments.
    const ends = new Set<number>();
    let at = 0;
    for (const piece of breakablePieces(content)) ends.add((at += piece.length));
    at = 0;
    for (const line of lines) expect(ends.has((at += line.length))).toBe(true);
    for (const line of lines.slice(1)) expect(line).not.toMatch(/^[、。）」]/);
    expect(breakablePieces('Hello wide world').join('|')).toBe('Hello |wide |world');
  });

  it('draws Arabic right to left, shaped, and starts a right-to-left paragraph at the right', async () => {
    // Joined letters: "بب" shaped is an initial and a final form, unshaped it is two isolated forms.
    const [joined, isolated] = await Promise.all([alphaOf('بب'), alphaOf('\ufe8f\ufe8f')]);
    expect(joined.equals(isolated)).toBe(false);
    // Aligned "left" (the start), an Arabic paragraph starts at the right edge; a Latin one at the left.
    const wrapWidth = 900;
    const arabic: TextStyle = { ...plain, align: 'left', wrapWidth, content: 'مرحبا بالعالم' };
    const latin: TextStyle = { ...arabic, content: 'Hello world' };
    for (const [style, side] of [
      [arabic, 'right'],
      [latin, 'left'],
    ] as const) {
      const layout = await rasteriser.layout(style);
      const drawn = await rasteriser.rasterise(style, layout);
      const ink = inkBox(drawn.pixels, drawn.width, drawn.height)!;
      const gapLeft = ink.left;
      const gapRight = drawn.width - 1 - ink.right;
      if (side === 'right') expect(gapRight).toBeLessThan(gapLeft / 4);
      else expect(gapLeft).toBeLessThan(gapRight / 4);
    }
  });

  it('a project records the italic and script fonts its text and captions use, with fingerprints true to the installed files', () => {
    let p = createProject({ id: 'p-scripts', kind: 'avatar-video', output: '16:9-720p' });
    p = addTextElement(
      p,
      'scene-1',
      { ...DEFAULT_TEXT_STYLE, fontWeight: 700, content: 'مرحبا بالعالم' },
      { width: 400, height: 100 },
      { id: 'ar' },
    );
    expect(p.fonts?.map((f) => f.file)).toEqual(['SourceSans3-Bold.ttf', 'noto-sans-arabic-arabic-700-normal.woff2']);
    p = withFontRecords(setSceneCaptions(p, 'scene-1', [{ text: '你好，世界', startMs: 0, endMs: 1000 }]));
    p = addTextElement(
      p,
      'scene-1',
      { ...DEFAULT_TEXT_STYLE, fontWeight: 400, italic: true, content: 'Slanted' },
      { width: 400, height: 100 },
      { id: 'it' },
    );
    expect(p.fonts?.map((f) => [f.file, f.weight])).toEqual([
      ['SourceSans3-Bold.ttf', 700],
      ['SourceSans3-It.ttf', 400],
      ['noto-sans-arabic-arabic-700-normal.woff2', 700],
      [SCRIPT_FONT_RECORDS.cjk.file, 700],
    ]);
    const sha = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
    for (const weight of [400, 700] as const) {
      const record = SCRIPT_FONT_RECORDS.arabic[weight];
      expect(sha(readFileSync(scriptFontPath(record.file)))).toBe(record.sha256);
    }
    // The CJK and Korean sets: every subset file each package has, each name with its own fingerprint.
    for (const face of ['cjk', 'korean'] as const) {
      const dir = dirname(scriptFontPath(subsetFile(face, '119')));
      const subsets = readdirSync(dir)
        .filter((name) => SCRIPT_FONT_FILE.test(name))
        .sort();
      expect(subsets.length, face).toBeGreaterThan(90);
      expect(sha(subsets.map((name) => `${name} ${sha(readFileSync(`${dir}/${name}`))}\n`).join('')), face).toBe(
        SCRIPT_FONT_RECORDS[face].sha256,
      );
    }
  });
});
