import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TextRasteriser } from '@common/text/text-rasteriser';
import { FontFiles } from '../../../electron/services/text/font-files';
import { resvgWasmPath } from '../../../electron/services/text/text-pictures';

export const FONTS_DIR = join(import.meta.dirname, '..', '..', '..', 'resources', 'fonts');

/** The rasteriser as the host builds it: resvg's .wasm from the installed package, fonts as the host reads them; `onFont` sees each file it reads. */
export function nodeRasteriser(onFont?: (file: string, bytes: Uint8Array) => void): TextRasteriser {
  const fonts = new FontFiles(FONTS_DIR);
  return new TextRasteriser({
    wasm: () => readFile(resvgWasmPath()),
    fontFile: async (file) => {
      const bytes = await fonts.read(file);
      onFont?.(file, bytes);
      return bytes;
    },
  });
}

/** The box of pixels whose alpha is above `min`, in picture pixels; null when none is. */
export function inkBox(
  pixels: Uint8Array,
  width: number,
  height: number,
  min = 16,
): { left: number; top: number; right: number; bottom: number } | null {
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
