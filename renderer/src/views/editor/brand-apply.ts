import { applyBrandKit, measuredBy, stylesToMeasure, type BrandKit } from '@common/composition';
import { pageRasteriser } from '@/text/page-rasteriser';
import type { useProjectStore } from '@/stores/project';

/**
 * Applies the brand kit to the open project as one change (one undo step). Every style the kit sets is
 * measured first with the page's rasteriser (the font's metrics), so each text box fits its new font.
 * Resolves with a sentence saying what changed, or throws with why nothing did.
 */
export async function applyBrandToOpenProject(
  project: ReturnType<typeof useProjectStore>,
  kit: BrandKit,
): Promise<string> {
  const doc = project.doc;
  const styles = stylesToMeasure(doc, kit);
  const sizes = await Promise.all(
    styles.map(async (style) => {
      const { width, height } = await pageRasteriser().layout(style);
      return { width, height };
    }),
  );
  const changed = project.apply((current) => applyBrandKit(current, kit, measuredBy(styles, sizes)));
  if (project.lastError) throw new Error(project.lastError);
  if (!changed) return 'The project already has the brand kit applied.';
  const parts = [
    `${project.doc.scenes.flatMap((s) => s.elements).filter((e) => e.type === 'text').length} text element(s) in the brand's fonts and colours`,
  ];
  if (kit.logo) parts.push(`the logo ${kit.logo.corner.replace('-', ' ')}`);
  if (kit.intro || kit.outro)
    parts.push([kit.intro && 'an intro', kit.outro && 'an outro'].filter(Boolean).join(' and '));
  return `Brand kit applied: ${parts.join(', ')}. Undo takes it back.`;
}
