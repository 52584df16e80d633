// A template's rows shown in the editor: sample values typed in, or read from a sample sheet, filled into
// a copy of the project for the canvas and the script preview. The project itself keeps its `{{name}}`
// placeholders: nothing here is an edit (no undo step, nothing unsaved).
import { computed, ref, shallowRef, watch, type Ref } from 'vue';
import { campaignTable, rowNumberText } from '@common/campaign/rows';
import {
  BUILT_IN_VARIABLES,
  columnVariables,
  fillTemplate,
  findVariables,
  type TemplateVariable,
} from '@common/campaign/variables';
import type { Project, Scene } from '@common/composition';

/** The values of one sample row, by variable key. */
export type SampleValues = Record<string, string>;

export interface SampleSheet {
  name: string;
  /** Each row's values by key (every column of the sheet, as campaignTable reads them). */
  rows: SampleValues[];
  /** What stops the sheet from giving this template its values ("no column is named …"). */
  problems: string[];
}

/** The template's variables that a row must give: {{row}} is filled by the campaign itself. */
export function rowVariables(project: Project): TemplateVariable[] {
  return columnVariables({ project, fileName: '' });
}

/** Every variable of the project, {{row}} included (the list the editor shows). */
export function projectVariables(project: Project): TemplateVariable[] {
  return findVariables({ project, fileName: '' });
}

export const isBuiltIn = (key: string): boolean => (BUILT_IN_VARIABLES as readonly string[]).includes(key);

/** A sample sheet's cells (header first) read the way a campaign reads them: the same column matching. */
export function sampleSheet(name: string, lines: readonly (readonly string[])[], project: Project): SampleSheet {
  const table = campaignTable(lines, rowVariables(project));
  return { name, rows: table.rows.map((r) => ({ ...r.values })), problems: table.problems };
}

export interface FilledView {
  project: Project;
  /** Variables (as written) this row has no value for: shown as their placeholder, and listed. */
  missing: string[];
}

/**
 * The project as the row makes it. A missing value is left as its placeholder ("{{First name}}") rather
 * than emptied, so the canvas and the script show plainly what the row lacks.
 */
export function filledView(project: Project, values: SampleValues, row: number, lastRow: number): FilledView {
  const variables = rowVariables(project);
  const shown: SampleValues = { ...values };
  const missing: string[] = [];
  for (const v of variables) {
    if ((values[v.key] ?? '').trim() !== '') continue;
    missing.push(v.name);
    shown[v.key] = `{{${v.name}}}`;
  }
  const filled = fillTemplate({ project, fileName: '' }, shown, { row: rowNumberText(row, lastRow) });
  return { project: filled.project, missing };
}

/** The scene's script with this row's values: its voiceover text, or a talking avatar's spoken text. */
export function sceneScript(scene: Scene): string | null {
  if (scene.voice?.kind === 'tts') return scene.voice.text;
  const spoken = scene.elements.find((e) => e.type === 'audio' && e.inputText !== undefined);
  return spoken?.inputText ?? null;
}

/**
 * The editor's sample rows for the open project: typed values (one row to start with) or a sample
 * sheet's, which row is shown, and whether the canvas shows the row or the placeholders.
 */
export function useSampleRows(doc: Ref<Project>) {
  const variables = computed(() => projectVariables(doc.value));
  const isTemplate = computed(() => variables.value.length > 0);
  const typed = ref<SampleValues[]>([{}]);
  const sheet = shallowRef<SampleSheet | null>(null);
  const index = ref(0);
  const showing = ref(false);

  const rows = computed(() => sheet.value?.rows ?? typed.value);
  const count = computed(() => rows.value.length);
  const values = computed<SampleValues>(() => rows.value[index.value] ?? {});
  const view = computed<FilledView | null>(() =>
    isTemplate.value && showing.value ? filledView(doc.value, values.value, index.value, count.value - 1) : null,
  );

  // Another project is another template: its samples start again.
  watch(
    () => doc.value.id,
    () => {
      typed.value = [{}];
      sheet.value = null;
      index.value = 0;
      showing.value = false;
    },
  );

  function go(to: number): void {
    if (count.value === 0) return;
    index.value = Math.min(count.value - 1, Math.max(0, to));
    showing.value = true;
  }

  return {
    variables,
    isTemplate,
    sheet,
    index,
    showing,
    count,
    values,
    view,
    /** The scene as the row makes it, when a row is shown. */
    sceneOf(sceneId: string): Scene | null {
      return view.value?.project.scenes.find((s) => s.id === sceneId) ?? null;
    },
    show(on: boolean): void {
      showing.value = on && isTemplate.value;
    },
    next: () => go(index.value + 1),
    previous: () => go(index.value - 1),
    go,
    /** Types a value into the shown row (typed samples only; a sheet's rows are its own). */
    setValue(key: string, value: string): void {
      if (sheet.value) return;
      typed.value = typed.value.map((row, i) => (i === index.value ? { ...row, [key]: value } : row));
      showing.value = true;
    },
    /** A new empty typed row after the last, shown. */
    addRow(): void {
      if (sheet.value) return;
      typed.value = [...typed.value, {}];
      go(typed.value.length - 1);
    },
    useSheet(next: SampleSheet): void {
      sheet.value = next;
      index.value = 0;
      showing.value = next.rows.length > 0;
    },
    /** Back to the typed values (kept while a sheet was in use). */
    dropSheet(): void {
      sheet.value = null;
      index.value = 0;
    },
  };
}

export type SampleRows = ReturnType<typeof useSampleRows>;
