// The one text rasteriser gives the same pixels in Chromium's page as in Node: the rasteriser module is
// bundled for the browser as the studio page gets it (esbuild), loaded into a blank page, and the same
// elements are drawn in both and compared pixel by pixel.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { TEXT_PRESETS, type TextStyle } from '@common/composition';
import { resvgWasmPath } from '../../electron/services/text/text-pictures';
import { nodeRasteriser } from '../unit/text/text-node';

const ROOT = join(import.meta.dirname, '..', '..');

export const SAMENESS_CASES: { name: string; style: TextStyle; scale: number }[] = [
  { name: 'title', style: TEXT_PRESETS.title.style, scale: 1 },
  { name: 'lower third', style: TEXT_PRESETS['lower-third'].style, scale: 0.5 },
  {
    name: 'wrapped, outlined serif, right aligned',
    style: {
      ...TEXT_PRESETS.caption.style,
      content: 'Ünïcødé text & <markup> that wraps over several lines',
      fontFamily: 'DejaVu Serif',
      align: 'right',
    },
    scale: 1.5,
  },
  {
    name: 'Chinese and Japanese, wrapped',
    style: {
      ...TEXT_PRESETS.caption.style,
      content: '今天天气很好，我们去公园吧。\nこんにちは、日本語のテキスト。',
      wrapWidth: 600,
    },
    scale: 1,
  },
  {
    name: 'Arabic, right to left',
    style: { ...TEXT_PRESETS['lower-third'].style, content: 'مرحبا بالعالم\nمدير المنتج' },
    scale: 1,
  },
  {
    name: 'Arabic with a Latin name and digits, lower third',
    style: {
      ...TEXT_PRESETS['lower-third'].style,
      content: 'سارة أحمد، مديرة Apple Store\nجرّب iPhone 15 اليوم (2026)',
    },
    scale: 1,
  },
];

export interface SamenessResult {
  name: string;
  sizes: { page: [number, number]; node: [number, number] };
  /** Largest difference of any channel of any pixel. */
  worst: number;
  /** Whether Node's picture has any pixel that is not transparent (a blank picture would be "the same" too). */
  drawn: boolean;
}

/** Draws every case in `page` (a blank page) and in Node. */
export async function drawInPageAndNode(page: Page): Promise<SamenessResult[]> {
  const bundle = await build({
    entryPoints: [join(ROOT, 'electron/common/text/text-rasteriser.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'studioText',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  await page.addScriptTag({ content: bundle.outputFiles[0].text });
  const wasm = (await readFile(resvgWasmPath())).toString('base64');
  // Node's rasteriser notes each font file it reads: the page is handed those same bytes, and no others.
  const used = new Map<string, Uint8Array>();
  const node = nodeRasteriser((file, bytes) => used.set(file, bytes));
  const results: SamenessResult[] = [];
  for (const { name, style, scale } of SAMENESS_CASES) {
    const layout = await node.layout(style);
    const size = { width: Math.round(layout.width * scale), height: Math.round(layout.height * scale) };
    const expected = await node.rasterise(style, size);
    const fonts = Object.fromEntries([...used].map(([file, bytes]) => [file, Buffer.from(bytes).toString('base64')]));
    const drawn = await page.evaluate(
      async ({ style, size, wasm, fonts }) => {
        const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const { TextRasteriser } = (window as unknown as { studioText: typeof import('@common/text/text-rasteriser') })
          .studioText;
        const rasteriser = new TextRasteriser({
          wasm: () => bytes(wasm),
          fontFile: async (file) => {
            if (!(file in fonts)) throw new Error(`the page asked for ${file}, which Node did not read`);
            return bytes(fonts[file]);
          },
        });
        const out = await rasteriser.rasterise(style, size);
        let text = '';
        for (let i = 0; i < out.pixels.length; i += 0x8000)
          text += String.fromCharCode(...out.pixels.subarray(i, i + 0x8000));
        return { width: out.width, height: out.height, pixels: btoa(text) };
      },
      { style, size, wasm, fonts },
    );
    const got = Buffer.from(drawn.pixels, 'base64');
    let worst = got.length === expected.pixels.length ? 0 : 255;
    for (let i = 0; i < Math.min(got.length, expected.pixels.length); i++)
      worst = Math.max(worst, Math.abs(got[i] - expected.pixels[i]));
    results.push({
      name,
      sizes: { page: [drawn.width, drawn.height], node: [expected.width, expected.height] },
      worst,
      drawn: expected.pixels.some((v, i) => i % 4 === 3 && v > 0),
    });
  }
  return results;
}
