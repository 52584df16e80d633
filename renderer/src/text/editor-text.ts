import {
  brandedTextStyle,
  presetStyle,
  TEXT_PRESETS,
  TextStyle,
  type Project,
  type SceneElement,
  type TextPresetId,
  type TextRole,
} from '@common/composition';
import { call } from '@/bridge';
import type { useProjectStore } from '@/stores/project';
import { pageRasteriser } from './page-rasteriser';

/** The brand role a preset's text plays (a caption-styled text is body text to the kit). */
const PRESET_ROLE: Record<TextPresetId, TextRole> = { title: 'title', 'lower-third': 'lower-third', caption: 'body' };

/** Whether the brand kit has been applied to the project: it leaves roles and bookends that say so. */
const branded = (project: Project): boolean =>
  project.scenes.some((s) => s.brand !== undefined || s.elements.some((e) => e.role !== undefined));

type ProjectStore = ReturnType<typeof useProjectStore>;

/**
 * Adding and restyling text: the style is measured by the rasteriser (the font's own metrics), then
 * applied as one operation, so an edit is one undo step and the box always fits the text.
 */
export function useEditorText(project: ProjectStore, report: (message: string) => void) {
  async function addText(preset: TextPresetId): Promise<string | null> {
    const role = PRESET_ROLE[preset];
    let style = presetStyle(project.doc, preset);
    try {
      // New text in a branded project takes the kit's fonts and colours for its role, and keeps the
      // role, so applying the kit again restyles it the same way.
      const kit = branded(project.doc) ? await call('brand.get') : null;
      if (kit) style = brandedTextStyle(style, role, kit);
      const layout = await pageRasteriser().layout(style);
      const natural = { width: layout.width, height: layout.height };
      return project.addText(style, natural, TEXT_PRESETS[preset].place, kit ? role : undefined);
    } catch (error) {
      report(`The text could not be added: ${(error as Error).message}`);
      return null;
    }
  }

  /** Applies a change of style; a value out of range is refused with the field's rule, nothing is lost. */
  async function restyle(element: SceneElement, patch: Partial<TextStyle>): Promise<void> {
    if (!element.text) return;
    const parsed = TextStyle.safeParse({ ...element.text, ...patch });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      report(`Text ${issue.path.join(' ')}: ${issue.message}`);
      return;
    }
    try {
      const layout = await pageRasteriser().layout(parsed.data);
      project.restyleText(element.id, parsed.data, { width: layout.width, height: layout.height });
    } catch (error) {
      report((error as Error).message);
    }
  }

  return { addText, restyle };
}
