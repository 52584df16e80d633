// Save as (Ctrl+Shift+S or the File menu) asks for the copy's name first, offering "<name> copy";
// Escape makes nothing, Enter makes the copy under the name typed. The editor is mounted with its
// canvas, timeline and side panels stubbed: what is under test is the file actions' wiring.
import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NConfigProvider, NDialogProvider, NMessageProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import { createProject, type Project } from '@common/composition';
import { useStudioApi } from '@/bridge';
import { useProjectStore } from '@/stores/project';
import EditorView from '@/views/editor/EditorView.vue';
import { fakeApi } from '../library/fake-api';

const STUBBED = [
  'EditorCanvas',
  'TimelinePanel',
  'AssetsPanel',
  'ProblemsPanel',
  'SubmitDialog',
  'PreviewDialog',
  'NewProjectDialog',
  'RowPicker',
  'VariablesPanel',
  'SceneInspector',
  'BrandTemplateTools',
];

function summary(project: Project) {
  return {
    id: project.id,
    name: project.name,
    kind: project.kind,
    output: project.output,
    scenes: project.scenes.length,
    durationMs: 0,
    updatedAt: 0,
    location: 'Project library',
  };
}

function setup(location: string | null = 'p1') {
  const fake = fakeApi({
    'projects.capabilities': () => ({ dialogs: false }),
    'projects.listRecovery': () => [],
    'projects.listRecent': () => [],
    'projects.saveAs': (project: unknown, options: unknown) => {
      const copy = { ...(project as Project), id: 'p-copy', name: (options as { name: string }).name };
      return { project: copy, summary: summary(copy), recovered: false };
    },
  });
  useStudioApi(fake.api);
  const pinia = createPinia();
  setActivePinia(pinia);
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p1', name: 'Launch' }), location);
  const Root = defineComponent(
    () => () =>
      h(NConfigProvider, null, () => h(NMessageProvider, null, () => h(NDialogProvider, null, () => h(EditorView)))),
  );
  const stubs = Object.fromEntries(STUBBED.map((name) => [name, true]));
  const wrapper = mount(Root, { global: { plugins: [pinia], stubs }, attachTo: document.body });
  return { fake, store, wrapper };
}

const nameField = () => document.querySelector<HTMLInputElement>('input[aria-label="Name of the copy"]');
const saveAsCalls = (fake: ReturnType<typeof setup>['fake']) =>
  fake.calls.filter((c) => c.channel === 'projects.saveAs');

function pressSaveAs(): void {
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'S', ctrlKey: true, shiftKey: true, bubbles: true }));
}

describe('save as', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('Ctrl+Shift+S asks for a name, offering "<name> copy", and Escape makes nothing', async () => {
    const { fake } = setup();
    await flushPromises();
    expect(nameField()).toBeNull();
    pressSaveAs();
    await flushPromises();
    expect(nameField()?.value).toBe('Launch copy');
    nameField()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', bubbles: true }));
    await flushPromises();
    expect(nameField()).toBeNull();
    expect(saveAsCalls(fake)).toEqual([]);
  });

  it('Enter makes the copy under the name typed, and the editor then has the copy open', async () => {
    const { fake, store } = setup();
    await flushPromises();
    pressSaveAs();
    await flushPromises();
    const field = nameField()!;
    field.value = '  Launch (vertical) ';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await flushPromises();
    field.form!.requestSubmit();
    await flushPromises();
    expect(saveAsCalls(fake)).toHaveLength(1);
    expect(saveAsCalls(fake)[0].args[1]).toEqual({ name: 'Launch (vertical)' });
    expect(store.doc).toMatchObject({ id: 'p-copy', name: 'Launch (vertical)' });
    expect(nameField()).toBeNull();
  });

  it('an empty name is refused in words, and nothing is made', async () => {
    const { fake } = setup();
    await flushPromises();
    pressSaveAs();
    await flushPromises();
    const field = nameField()!;
    field.value = '   ';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await flushPromises();
    field.form!.requestSubmit();
    await flushPromises();
    expect(document.querySelector('[role="alert"]')?.textContent).toBe('Give the copy a name.');
    expect(saveAsCalls(fake)).toEqual([]);
  });
});
