// The one text rasteriser gives the same pixels in Chromium's page as in Node: the canvas shows what
// the host overlays on the preview and uploads at submit. The rasteriser module is bundled for the
// browser as the studio page gets it (esbuild), then the same elements are drawn in both and compared.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fontFileOf, TEXT_PRESETS, type TextStyle } from '@common/composition';
import { FONTS_DIR, nodeRasteriser } from '../unit/text/text-node';
import { launchBrowser } from './browser';

const ROOT = join(import.meta.dirname, '..', '..');

/** Largest difference allowed in any channel of any pixel: none, the engine and the fonts are the same bytes. */
const CHANNEL_TOLERANCE = 0;

const cases: { name: string; style: TextStyle; scale: number }[] = [
  { name: 'title', style: TEXT_PRESETS.title.style, scale: 1 },
  { name: 'lower third', style: TEXT_PRESETS['lower-third'].style, scale: 0.5 },
  { name: 'wrapped, outlined serif, right aligned', style: { ...TEXT_PRESETS.caption.style, content: 'Ünïcødé text & <markup> that wraps over several lines', fontFamily: 'DejaVu Serif', align: 'right' }, scale: 1.5 },
];

describe('text rasteriser sameness, Node and Chromium', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    const bundle = await build({ entryPoints: [join(ROOT, 'electron/common/text/text-rasteriser.ts')], bundle: true, format: 'iife', globalName: 'studioText', platform: 'browser', write: false, logLevel: 'silent' });
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws every case to the same pixels in the page as in Node', async () => {
    const wasm = (await readFile(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm'))).toString('base64');
    const node = nodeRasteriser();
    for (const { name, style, scale } of cases) {
      const file = fontFileOf(style.fontFamily, style.fontWeight)!.file;
      const font = (await readFile(join(FONTS_DIR, file))).toString('base64');
      const layout = await node.layout(style);
      const size = { width: Math.round(layout.width * scale), height: Math.round(layout.height * scale) };
      const expected = await node.rasterise(style, size);
      const drawn = await page.evaluate(
        async ({ style, size, wasm, font }) => {
          const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const { TextRasteriser } = (window as unknown as { studioText: typeof import('@common/text/text-rasteriser') }).studioText;
          const rasteriser = new TextRasteriser({ wasm: () => bytes(wasm), fontFile: async () => bytes(font) });
          const out = await rasteriser.rasterise(style, size);
          let text = '';
          for (let i = 0; i < out.pixels.length; i += 0x8000) text += String.fromCharCode(...out.pixels.subarray(i, i + 0x8000));
          return { width: out.width, height: out.height, pixels: btoa(text) };
        },
        { style, size, wasm, font },
      );
      expect([drawn.width, drawn.height], name).toEqual([expected.width, expected.height]);
      const got = Buffer.from(drawn.pixels, 'base64');
      let worst = 0;
      for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - expected.pixels[i]));
      expect(worst, `${name}: largest channel difference`).toBeLessThanOrEqual(CHANNEL_TOLERANCE);
      // Something was drawn: a blank picture would be "the same" too.
      expect(expected.pixels.some((v, i) => i % 4 === 3 && v > 0), name).toBe(true);
    }
  });
});
