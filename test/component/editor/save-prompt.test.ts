import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { createProject, type Project } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import { useEditorFiles, type LeaveChoice, type ProjectsApi } from '@/composables/editor-files';

const notify = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };

function setup(answer: LeaveChoice) {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p1', name: 'Five scenes' }), 'p1');
  const other = createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p2', name: 'Other' });
  const api = {
    open: vi.fn(async () => ({ project: other, summary: { id: 'p2', name: 'Other' }, recovered: false })),
    save: vi.fn(async (p: Project) => ({ id: p.id, name: p.name })),
    discardRecovery: vi.fn(async () => undefined),
    listRecent: vi.fn(async () => []),
  } as unknown as ProjectsApi;
  const ask = vi.fn(async () => answer);
  const files = useEditorFiles(store, notify, () => api, undefined, ask);
  return { store, files, api, ask };
}

describe('save prompt before the open project is replaced', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('Cancel keeps the unsaved project open and opens nothing', async () => {
    const { store, files, api, ask } = setup('cancel');
    store.addScene();
    await files.onMenu('recent:p2');
    expect(ask).toHaveBeenCalledWith('Five scenes');
    expect(api.open).not.toHaveBeenCalled();
    expect(store.doc.scenes).toHaveLength(2);
    await files.onMenu('new');
    expect(files.showNew.value).toBe(false);
  });

  it('Save writes the changes first, then opens the other project', async () => {
    const { store, files, api } = setup('save');
    store.addScene();
    await files.onMenu('recent:p2');
    expect(api.save).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'p1', scenes: expect.arrayContaining([expect.anything(), expect.anything()]) }),
    );
    expect(store.doc.id).toBe('p2');
  });

  it("Don't save drops the changes and their autosave; nothing is asked without changes", async () => {
    const { store, files, api, ask } = setup('discard');
    store.addScene();
    await files.onMenu('new');
    expect(api.discardRecovery).toHaveBeenCalledWith('p1');
    expect(files.showNew.value).toBe(true);
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p3', name: 'Clean' }), 'p3');
    ask.mockClear();
    await files.onMenu('recent:p2');
    expect(ask).not.toHaveBeenCalled();
    expect(store.doc.id).toBe('p2');
  });
});
