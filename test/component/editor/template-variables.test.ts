// A project with {{variables}} in the editor: its variables are listed with where they are used, a sample
// row (typed, or from a sample sheet read the way a campaign reads it) is shown filled in on the canvas's
// copy and in the script, a value the row lacks stays a visible placeholder, and none of it is an edit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { computed, nextTick } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { parseProject, type Project } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import { sceneToItems } from '@/canvas/scene-items';
import RowPicker from '@/views/editor/RowPicker.vue';
import VariablesPanel from '@/views/editor/VariablesPanel.vue';
import { sampleSheet, useSampleRows } from '@/views/editor/sample-rows';
import { decodeSheetText, parseSheetText } from '@/views/editor/sample-sheet-file';

const root = join(import.meta.dirname, '../../..');

/** The campaign fixture: a name in both scripts and a text element, a per-row logo, avatar and voice. */
function greeting(): Project {
  const parsed = parseProject(readFileSync(join(root, 'test/fixtures/campaign/greeting.project.json'), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.project;
}

function openTemplate() {
  const store = useProjectStore();
  store.load(greeting(), 'greeting');
  const sample = useSampleRows(computed(() => store.doc));
  return { store, sample };
}

const textOf = (scene: { elements: { id: string; text?: { content: string } }[] } | null, id: string) =>
  scene?.elements.find((e) => e.id === id)?.text?.content;

beforeEach(() => setActivePinia(createPinia()));
afterEach(() => {
  document.body.innerHTML = '';
});

describe('a template in the editor', () => {
  it('lists each variable once, as first written, with every place it is used', () => {
    const { sample } = openTemplate();
    expect(sample.isTemplate.value).toBe(true);
    expect(sample.variables.value.map((v) => v.name)).toEqual(['First name', 'company', 'voice', 'avatar', 'logo']);
    const first = sample.variables.value[0];
    expect(first.places.map((p) => `${p.where}:${p.field}`)).toEqual([
      'Scene 1 (hello):script',
      'Scene 1 (hello), element title:text',
      'Scene 2 (scene-2):script',
    ]);
  });

  it('shows a typed row filled in on the canvas copy and the script, the project keeping its placeholders and no undo step', async () => {
    const { store, sample } = openTemplate();
    const before = store.doc;
    sample.setValue('first_name', 'Ana');
    sample.setValue('company', 'Acme');
    const scene = sample.sceneOf('scene-1');
    expect(scene?.voice).toMatchObject({ kind: 'tts', text: 'Hi Ana, this is for Acme.' });
    expect(textOf(scene, 'title')).toBe('Hello Ana!');
    // What the canvas draws: the text picture is asked for with the filled words.
    const drawn: string[] = [];
    sceneToItems(
      scene!,
      store.doc.output,
      () => null,
      (e) => (drawn.push(e.text?.content ?? ''), null),
    );
    expect(drawn).toEqual(['Hello Ana!']);
    // The project is untouched: same object, nothing to undo, nothing unsaved.
    expect(store.doc).toBe(before);
    expect(textOf(store.doc.scenes[0], 'title')).toBe('Hello {{first_name}}!');
    expect(store.canUndo).toBe(false);
    expect(store.dirty).toBe(false);
    // Back to the placeholders: the canvas shows the project itself.
    sample.show(false);
    expect(sample.sceneOf('scene-1')).toBeNull();
  });

  it('leaves a value the row lacks as its placeholder and names it', () => {
    const { sample } = openTemplate();
    sample.setValue('first_name', 'Bo');
    const view = sample.view.value!;
    expect(view.missing).toEqual(['company', 'voice', 'avatar', 'logo']);
    expect(view.project.scenes[0].voice).toMatchObject({
      text: 'Hi Bo, this is for {{company}}.',
      voiceId: '{{voice}}',
    });
    expect(view.project.scenes[0].elements.find((e) => e.id === 'logo')?.url).toBe('{{logo}}');
  });

  it("reads a sample sheet with the campaign's column matching, in Windows-1252 with semicolons", () => {
    const { store, sample } = openTemplate();
    // Windows-1252: é is the one byte 0xE9 (not valid UTF-8).
    const cp1252 = (text: string) => [...text].map((c) => c.charCodeAt(0));
    const bytes = new Uint8Array(
      cp1252(
        'First_Name;Company;voice;avatar;logo\nRen\u00e9;Caf\u00e9 Co;Ava;SandboxBen;https://x.test/l.png\n;Empty Co;Ava;SandboxBen;\n',
      ),
    );
    const lines = parseSheetText(decodeSheetText(bytes));
    const sheet = sampleSheet('prospects.csv', lines, store.doc);
    expect(sheet.problems).toEqual([]);
    sample.useSheet(sheet);
    expect(sample.view.value?.project.scenes[0].voice).toMatchObject({ text: 'Hi René, this is for Café Co.' });
    sample.next();
    expect(sample.index.value).toBe(1);
    expect(sample.view.value?.missing).toEqual(['First name', 'logo']);
    // A sheet's rows are its own: typing does not change them.
    sample.setValue('first_name', 'Typed');
    expect(sample.values.value.first_name).toBe('');
    expect(
      sampleSheet(
        'wrong.csv',
        [
          ['Name', 'company'],
          ['Ana', 'Acme'],
        ],
        store.doc,
      ).problems[0],
    ).toMatch(/\{\{First name\}\} and no column is named so/);
  });

  it('reads the windows-1252 fixture a German Excel writes as text the page can show', () => {
    const bytes = readFileSync(join(root, 'test/fixtures/sheets/excel-de-windows-1252-semicolon.csv'));
    const lines = parseSheetText(decodeSheetText(new Uint8Array(bytes)));
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.flat().join(' ')).not.toContain('\uFFFD');
    expect(lines[0].length).toBeGreaterThan(1);
  });
});

describe('the row picker over the canvas', () => {
  it('says the project is a template, steps rows with the keyboard without nudging the selection, and names what a row lacks', async () => {
    const { store, sample } = openTemplate();
    sample.setValue('first_name', 'Ana');
    sample.addRow();
    sample.setValue('first_name', 'Bo');
    sample.go(0);
    const nudged: string[] = [];
    const onWindow = (e: KeyboardEvent) => nudged.push(e.key);
    window.addEventListener('keydown', onWindow);
    const wrapper = mount(RowPicker, { props: { sample, project: store.doc }, attachTo: document.body });
    try {
      expect(wrapper.text()).toContain('Template · 5 variables');
      expect(wrapper.text()).toContain('Row 1 of 2');
      await wrapper.get('[aria-label="Next row"]').trigger('keydown', { key: 'ArrowRight' });
      expect(sample.index.value).toBe(1);
      expect(nudged).toEqual([]);
      await nextTick();
      expect(wrapper.text()).toContain('Row 2 of 2');
      expect(wrapper.text()).toContain('Row 2 has no value for {{company}}, {{voice}}, {{avatar}}, {{logo}}');
      await wrapper.get('[aria-label="Placeholders"]').trigger('click');
      expect(sample.showing.value).toBe(false);
      expect(store.canUndo).toBe(false);
    } finally {
      window.removeEventListener('keydown', onWindow);
      wrapper.unmount();
    }
  });

  it('is not shown for a project without variables', () => {
    const store = useProjectStore();
    const plain = greeting();
    store.load({ ...plain, scenes: plain.scenes.map((s) => ({ ...s, voice: null, elements: [] })) }, 'plain');
    const sample = useSampleRows(computed(() => store.doc));
    const wrapper = mount(RowPicker, { props: { sample, project: store.doc } });
    expect(sample.isTemplate.value).toBe(false);
    expect(wrapper.find('[aria-label="Sample row"]').exists()).toBe(false);
  });
});

describe('the variables panel', () => {
  it("types sample values into the shown row, not the project, and shows the scene's script with the gaps marked", async () => {
    const { store, sample } = openTemplate();
    const wrapper = mount(VariablesPanel, { props: { sample, sceneId: 'scene-1', sceneNumber: 1 } });
    expect(wrapper.text()).toContain('Template · 5 variables');
    expect(wrapper.text()).toContain('Campaigns makes one video per spreadsheet row');
    expect(wrapper.text()).toContain('text · Scene 1 (hello), element title');
    await wrapper.get('input[aria-label="Sample value of First name"]').setValue('Ana');
    expect(sample.values.value.first_name).toBe('Ana');
    expect(textOf(store.doc.scenes[0], 'title')).toBe('Hello {{first_name}}!');
    expect(store.canUndo).toBe(false);
    const script = wrapper.get('[aria-label="Script with this row\'s values"]');
    expect(script.text()).toBe('Hi Ana, this is for {{company}}.');
    expect(script.findAll('.gap').map((s) => s.text())).toEqual(['{{company}}']);
  });
});
