// @isolate: checks which workspace chunks have arrived, module state that another file's mounts would set.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia } from 'pinia';
import type { BridgeOutcome, StudioWindowApi } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { FIRST_SCREEN_WAIT_MS, prepareFirstScreen } from '@/composables/first-screen';
import { loadWorkspaceView, workspaceComponent } from '@/shell/workspace-views';
import { useConnectionsStore } from '@/stores/connections';
import { useEditorAssetsStore } from '@/stores/editor-assets';
import { useJobsStore } from '@/stores/jobs';

const EMPTY_CONNECTIONS = { connections: [], storage: null };

/** A window.studio whose calls answer once `release` is called (never, for the channels in `silent`). */
function slowStudio(silent: string[] = []): { api: StudioWindowApi; asked: string[]; release(): void } {
  const asked: string[] = [];
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answers: Record<string, unknown> = {
    'catalogue.avatars': [],
    'catalogue.voices': [],
    'connections.list': EMPTY_CONNECTIONS,
    'jobs.page': { jobs: [], next: null },
  };
  const api = {
    calls: new Proxy(
      {},
      {
        get: (_t, channel: string) => () => {
          asked.push(channel);
          if (silent.includes(channel)) return new Promise<BridgeOutcome>(() => undefined);
          return gate.then((): BridgeOutcome => ({ ok: true, value: answers[channel] ?? null }));
        },
      },
    ),
    events: new Proxy({}, { get: () => () => () => undefined }),
  } as unknown as StudioWindowApi;
  return { api, asked, release };
}

describe('the first screen', () => {
  afterEach(() => {
    useStudioApi(undefined);
    window.location.hash = '';
  });

  it("is mounted once its workspace and the editor's lists have arrived, not before", async () => {
    window.location.hash = '#/editor';
    const { api, asked, release } = slowStudio();
    useStudioApi(api);
    const pinia = createPinia();
    const wait = vi.fn(() => new Promise<void>(() => undefined));
    let ready = false;
    const preparing = prepareFirstScreen(pinia, wait).then(() => (ready = true));
    await loadWorkspaceView('editor');
    await flushPromises();
    expect(ready).toBe(false);
    release();
    await preparing;
    expect(wait).toHaveBeenCalledWith(FIRST_SCREEN_WAIT_MS);
    expect(useConnectionsStore(pinia).state).toEqual(EMPTY_CONNECTIONS);
    expect(useJobsStore(pinia).loaded).toBe(true);
    expect(useEditorAssetsStore(pinia).loading).toBe(false);
    // The editor's own start asks for nothing the first screen already has.
    const before = asked.length;
    await Promise.all([useConnectionsStore(pinia).ensureLoaded(), useJobsStore(pinia).ensureLoaded()]);
    expect(asked.length).toBe(before);
    // The shell gets the editor itself, not a wrapper that would render it a task later.
    expect((workspaceComponent('editor') as { __asyncLoader?: unknown }).__asyncLoader).toBeUndefined();
    expect((workspaceComponent('voices') as { __asyncLoader?: unknown }).__asyncLoader).toBeTypeOf('function');
  });

  it('does not hold the page longer than its wait when a list does not come', async () => {
    window.location.hash = '#/editor';
    const { api, release } = slowStudio(['jobs.page']);
    useStudioApi(api);
    release();
    const wait = vi.fn(() => Promise.resolve());
    await expect(prepareFirstScreen(createPinia(), wait)).resolves.toBeUndefined();
    expect(wait).toHaveBeenCalledOnce();
  });
});
