import type { OutputSize } from '../composition/document';
import type { TextStyle } from '../composition/text-style';
import type { TextRasteriser } from '../text/text-rasteriser';
import { cuePlace, cueStyle } from './caption-ops';
import type { CaptionSettings } from './caption-track';

/**
 * A caption drawn by the one text rasteriser, for the preview overlay (in the page) and burn-in (on
 * the host), so both show the same pixels. The box hugs the words: lines are broken at the caption
 * width, then the picture is narrowed to its widest line (breaking again at that width gives the same
 * lines), and centred in the frame.
 */
export interface CuePicture {
  png: Uint8Array;
  x: number;
  y: number;
  width: number;
  height: number;
}

export async function fittedCueStyle(
  rasteriser: TextRasteriser,
  settings: CaptionSettings,
  text: string,
  output: OutputSize,
): Promise<TextStyle> {
  const style = cueStyle(settings, text, output);
  const layout = await rasteriser.layout(style);
  const widest = Math.max(1, ...layout.lines.map((l) => l.width));
  return { ...style, wrapWidth: Math.min(style.wrapWidth ?? widest, Math.ceil(widest) + 1) };
}

export async function drawCue(
  rasteriser: TextRasteriser,
  settings: CaptionSettings,
  text: string,
  output: OutputSize,
): Promise<CuePicture> {
  const style = await fittedCueStyle(rasteriser, settings, text, output);
  const layout = await rasteriser.layout(style);
  const drawn = await rasteriser.rasterise(style, { width: layout.width, height: layout.height });
  const place = cuePlace({ width: drawn.width, height: drawn.height }, output, settings);
  return { png: drawn.png, x: place.x, y: place.y, width: drawn.width, height: drawn.height };
}
