import type { Project, Scene, SceneElement } from '../composition/document';
import { capitalise, elementLabel, sceneLabel } from '../composition/render-plan';
import { followsVoice, TEMPLATE_VARIABLE } from '../composition/voice-follow';

/**
 * A campaign's template is a project with `{{name}}` placeholders, and a name template for its output
 * files. The service has no template endpoint, so the studio fills the placeholders itself: each row of
 * a spreadsheet becomes a complete project of its own, which the usual serialisers turn into that row's
 * request. Pure: nothing here reads a file or a network.
 */
export interface CampaignTemplate {
  project: Project;
  /** The output file's name without extension, e.g. "{{row}} - {{first name}}". */
  fileName: string;
}

/** Where a placeholder sits: the kind of field, for the checks and for people. */
export type VariableField = 'script' | 'text' | 'link' | 'avatar' | 'voice' | 'file-name';

export interface VariablePlace {
  field: VariableField;
  /** "Scene 1, element logo" or "the output file name". */
  where: string;
  sceneIndex?: number;
  elementId?: string;
}

export interface TemplateVariable {
  /** As first written in the template ("First name"). */
  name: string;
  /** The name compared with columns: case, spaces, dashes and underscores do not count. */
  key: string;
  places: VariablePlace[];
}

/** Filled by the campaign itself, never by a column: the row's number in the spreadsheet (1-based). */
export const BUILT_IN_VARIABLES = ['row'] as const;

/** "First Name", "first_name" and "first-name" are the same variable (and the same column). */
export function variableKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');
}

/** The placeholders of one piece of text, in order (duplicates kept), as written. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(TEMPLATE_VARIABLE)].map((m) => m[1]);
}

/** A field of the project that may hold placeholders, with how to read and replace it. */
interface Slot {
  place: VariablePlace;
  value: string;
}

/** Every field of a template that can carry a placeholder, in project order, the file name last. */
function slotsOf(template: CampaignTemplate): Slot[] {
  const slots: Slot[] = [];
  template.project.scenes.forEach((scene, sceneIndex) => {
    const sceneText = capitalise(sceneLabel(sceneIndex, scene.id, scene.name));
    const at = (field: VariableField, value: string | undefined, element?: SceneElement): void => {
      if (value === undefined) return;
      const where = element
        ? capitalise(elementLabel(sceneLabel(sceneIndex, scene.id, scene.name), element.id, element.name))
        : sceneText;
      slots.push({ place: { field, where, sceneIndex, ...(element ? { elementId: element.id } : {}) }, value });
    };
    if (scene.voice?.kind === 'tts') {
      at('script', scene.voice.text);
      at('voice', scene.voice.voiceId);
      at('link', scene.voice.audioUrl);
    } else if (scene.voice?.kind === 'url') at('link', scene.voice.url);
    for (const element of scene.elements) {
      if (element.type === 'text') {
        at('text', element.text?.content, element);
        continue;
      }
      at('link', element.url, element);
      if (element.type === 'avatar') at('avatar', element.avatarId, element);
      if (element.type === 'audio') {
        at('script', element.inputText, element);
        at('voice', element.voiceId, element);
      }
    }
  });
  slots.push({ place: { field: 'file-name', where: 'the output file name' }, value: template.fileName });
  return slots;
}

/** The template's variables, in the order they first appear, each with every place it is used. */
export function findVariables(template: CampaignTemplate): TemplateVariable[] {
  const byKey = new Map<string, TemplateVariable>();
  for (const slot of slotsOf(template)) {
    for (const name of placeholdersIn(slot.value)) {
      const key = variableKey(name);
      const known = byKey.get(key) ?? { name, key, places: [] };
      if (!known.places.some((p) => p.field === slot.place.field && p.where === slot.place.where))
        known.places.push(slot.place);
      byKey.set(key, known);
    }
  }
  return [...byKey.values()];
}

/** Variables a spreadsheet must give (the built-in ones are filled by the campaign). */
export function columnVariables(template: CampaignTemplate): TemplateVariable[] {
  return findVariables(template).filter((v) => !(BUILT_IN_VARIABLES as readonly string[]).includes(v.key));
}

/** Placeholders that cannot be filled: an empty name ("{{ }}"). */
export function templateProblems(template: CampaignTemplate): string[] {
  const problems: string[] = [];
  for (const slot of slotsOf(template)) {
    if (placeholdersIn(slot.value).some((name) => variableKey(name) === ''))
      problems.push(`${slot.place.where}: "{{}}" names no variable; write a column's name between the braces.`);
  }
  if (template.fileName.trim() === '')
    problems.push('The output file name is empty: give a name template such as "{{row}} - {{name}}".');
  return problems;
}

/** A row's values by variable key; the built-in `row` is added by fillTemplate. */
export type RowValues = Readonly<Record<string, string>>;

export interface FillOptions {
  /** The row's 1-based number for {{row}}, as text (the caller pads it so files sort). */
  row: string;
  /** Turns a value put into a link field into a link (a path beside the spreadsheet into a file: URL). */
  link?: (value: string) => string;
}

export interface FilledRow {
  project: Project;
  fileName: string;
  /** Variables the template uses that the row has no value for (empty cells count as none). */
  missing: string[];
}

/**
 * The row's own project and file name: every placeholder replaced by the row's value. A placeholder
 * without a value is left empty and named in `missing`, so the check can refuse the row.
 */
export function fillTemplate(template: CampaignTemplate, values: RowValues, options: FillOptions): FilledRow {
  // By key, named as first written: "{{First name}}" and "{{first-name}}" are one missing value.
  const missing = new Map<string, string>();
  const lookup = (name: string): string => {
    const key = variableKey(name);
    if (key === 'row') return options.row;
    const value = values[key];
    if (value === undefined || value.trim() === '') {
      if (!missing.has(key)) missing.set(key, name);
      return '';
    }
    return value;
  };
  const fill = (text: string): string => text.replace(TEMPLATE_VARIABLE, (_, name: string) => lookup(name));
  // A link that is nothing but a placeholder is the row's own file or link; around other text it is text.
  const fillLink = (text: string): string => {
    const filled = fill(text);
    return filled !== text && options.link && filled.trim() !== '' ? options.link(filled.trim()) : filled;
  };
  const scenes = template.project.scenes.map((scene): Scene => ({
    ...scene,
    // Decided on the template, whose scripts still show which change with each row.
    ...(followsVoice(template.project, scene) ? { followVoice: true } : {}),
    voice:
      scene.voice?.kind === 'tts'
        ? {
            ...scene.voice,
            text: fill(scene.voice.text),
            voiceId: fill(scene.voice.voiceId),
            ...(scene.voice.audioUrl !== undefined ? { audioUrl: fillLink(scene.voice.audioUrl) } : {}),
          }
        : scene.voice?.kind === 'url'
          ? { ...scene.voice, url: fillLink(scene.voice.url) }
          : scene.voice,
    elements: scene.elements.map((element) => fillElement(element, fill, fillLink)),
  }));
  const project: Project = { ...template.project, scenes };
  return { project, fileName: fill(template.fileName), missing: [...missing.values()] };
}

function fillElement(
  element: SceneElement,
  fill: (text: string) => string,
  fillLink: (text: string) => string,
): SceneElement {
  if (element.type === 'text')
    return element.text ? { ...element, text: { ...element.text, content: fill(element.text.content) } } : element;
  const out: SceneElement = { ...element, url: fillLink(element.url) };
  // A link the row gives is the user's own: sent as it is, not taken from a catalogue.
  if (out.url !== element.url) delete out.urlFrom;
  if (element.avatarId !== undefined) out.avatarId = fill(element.avatarId);
  if (element.inputText !== undefined) out.inputText = fill(element.inputText);
  if (element.voiceId !== undefined) out.voiceId = fill(element.voiceId);
  return out;
}

/** Whether a project is a template: it has at least one placeholder outside the file name. */
export function isTemplate(project: Project): boolean {
  return findVariables({ project, fileName: '' }).length > 0;
}
