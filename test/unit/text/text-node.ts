import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { TextRasteriser } from '@common/text/text-rasteriser';
import { FontFiles } from '../../../electron/services/text/font-files';

export const FONTS_DIR = join(import.meta.dirname, '..', '..', '..', 'resources', 'fonts');

/** The rasteriser as the host builds it: resvg's .wasm from the installed package, fonts from resources/. */
export function nodeRasteriser(): TextRasteriser {
  const fonts = new FontFiles(FONTS_DIR);
  return new TextRasteriser({
    wasm: () => readFile(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')),
    fontFile: (file) => fonts.read(file),
  });
}

/** The box of pixels whose alpha is above `min`, in picture pixels; null when none is. */
export function inkBox(pixels: Uint8Array, width: number, height: number, min = 16): { left: number; top: number; right: number; bottom: number } | null {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (pixels[(y * width + x) * 4 + 3] <= min) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return right < 0 ? null : { left, top, right, bottom };
}
