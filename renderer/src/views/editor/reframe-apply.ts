import {
  formatStylesToMeasure,
  measuredBy,
  reframeStylesToMeasure,
  type MeasureText,
  type OutputSize,
  type Project,
} from '@common/composition';
import { pageRasteriser } from '@/text/page-rasteriser';

/**
 * Reframing wraps text again, and only the font knows how tall the wrapped lines are: every style the
 * new frame asks about is measured with the page's rasteriser first (as the brand kit does), so the
 * change itself stays one pure operation and one undo step.
 */
export async function reframeMeasure(doc: Project, to: OutputSize): Promise<MeasureText> {
  const styles = reframeStylesToMeasure(doc, to);
  const sizes = await Promise.all(
    styles.map(async (style) => {
      const { width, height } = await pageRasteriser().layout(style);
      return { width, height };
    }),
  );
  return measuredBy(styles, sizes);
}

/**
 * The measure adding or switching to a format needs (or, without `to`, making every format): each
 * text laid out again is measured by the page's rasteriser first, so the change stays one pure step.
 */
export async function formatMeasure(doc: Project, to?: OutputSize): Promise<MeasureText> {
  const styles = formatStylesToMeasure(doc, to);
  const sizes = await Promise.all(
    styles.map(async (style) => {
      const { width, height } = await pageRasteriser().layout(style);
      return { width, height };
    }),
  );
  return measuredBy(styles, sizes);
}
