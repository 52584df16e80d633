// The last project opens again after a reload: the editor's start reopens the project it last had
// open, unless there is unsaved work to recover (the banner asks) or the project is gone.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { createProject } from '@common/composition';
import type { RecoveryEntry } from '@common/bridge/projects';
import { useProjectStore } from '@/stores/project';
import { useEditorFiles, type ProjectsApi } from '@/composables/editor-files';

const notify = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
const launch = createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'launch', name: 'Launch' });
const summary = { id: 'launch', name: 'Launch', scenes: 1 };

/** A page as a reload leaves it: a fresh store holding the blank project, the studio's projects behind it. */
function page(recovery: RecoveryEntry[] = [], recent = [summary]) {
  setActivePinia(createPinia());
  const store = useProjectStore();
  const api = {
    capabilities: vi.fn(async () => ({ dialogs: false })),
    listRecovery: vi.fn(async () => recovery),
    listRecent: vi.fn(async () => recent),
    open: vi.fn(async (id: string) => ({ project: { ...launch, id }, summary: { ...summary, id }, recovered: false })),
  } as unknown as ProjectsApi;
  const files = useEditorFiles(store, notify, () => api);
  return { store, files, api };
}

describe('reopening the last project after a reload', () => {
  beforeEach(() => localStorage.clear());

  it('opens the project that was open before the reload', async () => {
    const before = page();
    await before.files.open('launch');
    expect(before.store.fileRef).toBe('launch');
    const after = page();
    await after.files.start();
    expect(after.api.open).toHaveBeenCalledWith('launch');
    expect(after.store.doc.name).toBe('Launch');
    expect(after.store.dirty).toBe(false);
  });

  it('leaves the choice to the recovery banner when there is unsaved work, and opens nothing gone', async () => {
    const before = page();
    await before.files.open('launch');
    const recovering = page([{ id: 'launch', name: 'Launch', autosavedAt: 1 } as unknown as RecoveryEntry]);
    await recovering.files.start();
    expect(recovering.api.open).not.toHaveBeenCalled();
    const gone = page([], []);
    await gone.files.start();
    expect(gone.api.open).not.toHaveBeenCalled();
    expect(gone.store.fileRef).toBeNull();
  });
});
