/** Where the output frame sits inside the canvas panel: its scale and top-left, in screen pixels. */
export interface Viewport {
  scale: number;
  x: number;
  y: number;
}

export const ZOOM_STEPS = [0.1, 0.125, 0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
const MARGIN = 24;

/** Scale at which the whole output frame fits inside the panel with a margin around it. */
export function fitScale(panel: { width: number; height: number }, output: { width: number; height: number }): number {
  const w = Math.max(1, panel.width - MARGIN * 2);
  const h = Math.max(1, panel.height - MARGIN * 2);
  return Math.max(0.01, Math.min(w / output.width, h / output.height));
}

/** zoom null means "fit to window". The frame is centred when it is smaller than the panel. */
export function computeViewport(
  panel: { width: number; height: number },
  output: { width: number; height: number },
  zoom: number | null,
): Viewport {
  const scale = zoom ?? fitScale(panel, output);
  const x = Math.round((panel.width - output.width * scale) / 2);
  const y = Math.round((panel.height - output.height * scale) / 2);
  return {
    scale,
    x: Math.max(x, panel.width < output.width * scale ? MARGIN : x),
    y: Math.max(y, panel.height < output.height * scale ? MARGIN : y),
  };
}

/** Next zoom step above (direction 1) or below (-1) the current scale. */
export function stepZoom(current: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((z) => z > current + 1e-6) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1];
  const lower = [...ZOOM_STEPS].reverse().find((z) => z < current - 1e-6);
  return lower ?? ZOOM_STEPS[0];
}

/** Safe-area rectangle (title safe, 90 % of each dimension by broadcast convention), in output px. */
export function safeArea(
  output: { width: number; height: number },
  fraction = 0.9,
): { x: number; y: number; width: number; height: number } {
  const width = output.width * fraction;
  const height = output.height * fraction;
  return { x: (output.width - width) / 2, y: (output.height - height) / 2, width, height };
}
