import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { createProject, type Project } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import { useEditorFiles, type ProjectsApi } from '@/composables/editor-files';

const notify = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };

function setup(autosave: (p: Project) => Promise<{ autosavedAt: number }>) {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p1', name: 'Busy' }), 'p1');
  const order: string[] = [];
  const api = {
    autosave: vi.fn(async (p: Project) => {
      order.push(`autosave ${p.scenes.length} scene(s)`);
      return autosave(p);
    }),
    discardRecovery: vi.fn(async (id: string) => void order.push(`discard ${id}`)),
    listRecent: vi.fn(async () => []),
  } as unknown as ProjectsApi;
  useEditorFiles(store, notify, () => api);
  return { store, order, autosave: api.autosave as ReturnType<typeof vi.fn> };
}

/** One edit, then `ms` of the clock, letting Vue's watchers and the autosave's promises run. */
async function editThenWait(store: ReturnType<typeof useProjectStore>, ms: number): Promise<void> {
  store.addScene();
  await nextTick();
  await vi.advanceTimersByTimeAsync(ms);
}

describe('autosave', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.useFakeTimers();
    notify.warning.mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('writes within half a second of a pause, so a killed host loses under a second of work', async () => {
    const { store, autosave } = setup(async () => ({ autosavedAt: Date.now() }));
    await editThenWait(store, 500);
    expect(autosave).toHaveBeenCalledTimes(1);
    expect((autosave.mock.calls[0][0] as Project).scenes).toHaveLength(2);
  });

  it('keeps writing while edits go on without a pause, at least every 1.5 s, the newest state each time', async () => {
    const writtenAt: number[] = [];
    const started = Date.now();
    const { store, autosave } = setup(async () => {
      writtenAt.push(Date.now() - started);
      return { autosavedAt: Date.now() };
    });
    for (let i = 0; i < 30; i += 1) await editThenWait(store, 200);
    // 6 s of edits 0.2 s apart: a debounce alone would not have written once.
    expect(writtenAt.length).toBeGreaterThanOrEqual(3);
    const gaps = writtenAt.map((at, i) => at - (i === 0 ? 0 : writtenAt[i - 1]));
    expect(Math.max(...gaps, 6_000 - writtenAt.at(-1)!)).toBeLessThanOrEqual(1_700);
    const last = autosave.mock.calls.at(-1)?.[0] as Project;
    expect(last.scenes.length).toBeGreaterThan(20);
  });

  it('sends one write at a time and then the newest state; a host that is down is reported once', async () => {
    let release: (() => void) | null = null;
    const { store, autosave } = setup(
      () => new Promise((resolve, reject) => (release = () => reject(new Error('host down')))),
    );
    await editThenWait(store, 500);
    await editThenWait(store, 500);
    await editThenWait(store, 500);
    expect(autosave).toHaveBeenCalledTimes(1);
    (release as unknown as () => void)();
    await vi.advanceTimersByTimeAsync(0);
    expect(autosave).toHaveBeenCalledTimes(2);
    expect((autosave.mock.calls[1][0] as Project).scenes).toHaveLength(4);
    (release as unknown as () => void)();
    await vi.advanceTimersByTimeAsync(0);
    await editThenWait(store, 500);
    (release as unknown as () => void)();
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.warning).toHaveBeenCalledTimes(1);
  });

  it('a save waits for an autosave on its way and drops one waiting, so none lands after the save', async () => {
    setActivePinia(createPinia());
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p1', name: 'Busy' }), 'p1');
    const order: string[] = [];
    let land: (() => void) | null = null;
    const api = {
      autosave: vi.fn(
        () =>
          new Promise(
            (resolve) => (land = () => (order.push('autosave landed'), resolve({ autosavedAt: Date.now() }))),
          ),
      ),
      save: vi.fn(async (p: Project) => (order.push('saved'), { id: p.id, name: p.name })),
      listRecent: vi.fn(async () => []),
    } as unknown as ProjectsApi;
    const files = useEditorFiles(store, notify, () => api);
    await editThenWait(store, 500);
    expect(api.autosave).toHaveBeenCalledTimes(1);
    // A second edit waits for its write; Save comes before it.
    store.addScene();
    await nextTick();
    const saving = files.save();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(order).toEqual([]);
    land!();
    await saving;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(order).toEqual(['autosave landed', 'saved']);
    expect(api.autosave).toHaveBeenCalledTimes(1);
    expect(store.dirty).toBe(false);
  });

  it('writes a pending autosave at once when the editor goes away, and a bridge that throws counts as a failure', async () => {
    const scope = effectScope();
    const { store, autosave } = scope.run(() => setup(async () => ({ autosavedAt: Date.now() })))!;
    store.addScene();
    await nextTick();
    expect(autosave).not.toHaveBeenCalled();
    scope.stop();
    await Promise.resolve();
    expect(autosave).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(autosave).toHaveBeenCalledTimes(1);

    const throwing = effectScope();
    const broken = throwing.run(() =>
      setup(() => {
        throw new TypeError('the bridge is gone');
      }),
    )!;
    broken.store.addScene();
    await nextTick();
    throwing.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.warning).toHaveBeenCalledWith('Autosave failed; save the project by hand.');
  });

  it('undoing back to the saved state removes the autosave, so a reload offers nothing stale', async () => {
    const { store, order } = setup(async () => ({ autosavedAt: Date.now() }));
    await editThenWait(store, 500);
    await editThenWait(store, 500);
    expect(order).toEqual(['autosave 2 scene(s)', 'autosave 3 scene(s)']);
    store.undo();
    await nextTick();
    await vi.advanceTimersByTimeAsync(500);
    expect(order.at(-1)).toBe('autosave 2 scene(s)');
    store.undo();
    expect(store.dirty).toBe(false);
    await nextTick();
    await vi.advanceTimersByTimeAsync(0);
    expect(order.at(-1)).toBe('discard p1');
    // Nothing more is written for the saved state, and an edit after it is autosaved again.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(order.filter((o) => o === 'discard p1')).toHaveLength(1);
    await editThenWait(store, 500);
    expect(order.at(-1)).toBe('autosave 2 scene(s)');
  });

  it('an undo to the saved state while an autosave is on its way removes it after it lands', async () => {
    let land: (() => void) | null = null;
    const { store, order } = setup(
      () => new Promise((resolve) => (land = () => (order.push('landed'), resolve({ autosavedAt: Date.now() })))),
    );
    await editThenWait(store, 500);
    store.undo();
    await nextTick();
    await vi.advanceTimersByTimeAsync(500);
    expect(order).toEqual(['autosave 2 scene(s)']);
    land!();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['autosave 2 scene(s)', 'landed', 'discard p1']);
  });

  it('opening a saved project leaves the autosave it may have alone', async () => {
    const { store, order } = setup(async () => ({ autosavedAt: Date.now() }));
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p2', name: 'Other' }), 'p2');
    await nextTick();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(order).toEqual([]);
  });
});
