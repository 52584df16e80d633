import { presetStyle, TEXT_PRESETS, TextStyle, type SceneElement, type TextPresetId } from '@common/composition';
import type { useProjectStore } from '@/stores/project';
import { pageRasteriser } from './page-rasteriser';

type ProjectStore = ReturnType<typeof useProjectStore>;

/**
 * Adding and restyling text: the style is measured by the rasteriser (the font's own metrics), then
 * applied as one operation, so an edit is one undo step and the box always fits the text.
 */
export function useEditorText(project: ProjectStore, report: (message: string) => void) {
  async function addText(preset: TextPresetId): Promise<string | null> {
    const style = presetStyle(project.doc, preset);
    try {
      const layout = await pageRasteriser().layout(style);
      return project.addText(style, { width: layout.width, height: layout.height }, TEXT_PRESETS[preset].place);
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
