import { z } from 'zod';
import type { RecordStoreSpec } from '../services/host/types';

export const WindowState = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20000),
  height: z.number().int().min(300).max(20000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof WindowState>;

export const windowStateSpec: RecordStoreSpec<WindowState> = {
  name: 'window-state',
  schema: WindowState,
  defaults: { width: 1440, height: 900, maximized: false },
  version: 1,
};

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The bounds to open with: the saved ones when the window would still be mostly on a screen (a monitor
 * may have been unplugged since), otherwise the saved size, centred by the OS, shrunk to fit.
 */
export function restoreBounds(
  saved: WindowState,
  workAreas: readonly Rect[],
): Partial<Rect> & { width: number; height: number } {
  const largest = workAreas.reduce<Rect | undefined>(
    (best, a) => (!best || a.width * a.height > best.width * best.height ? a : best),
    undefined,
  );
  const width = Math.min(saved.width, largest?.width ?? saved.width);
  const height = Math.min(saved.height, largest?.height ?? saved.height);
  if (saved.x === undefined || saved.y === undefined) return { width, height };
  const window = { x: saved.x, y: saved.y, width, height };
  const visible = workAreas.some((area) => {
    const w = Math.min(window.x + window.width, area.x + area.width) - Math.max(window.x, area.x);
    const h = Math.min(window.y + window.height, area.y + area.height) - Math.max(window.y, area.y);
    return w > 0 && h > 0 && w * h >= 0.5 * window.width * window.height;
  });
  return visible ? window : { width, height };
}
