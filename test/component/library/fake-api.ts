import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h } from 'vue';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import type { BridgeOutcome, StudioWindowApi } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import LibraryView from '@/views/library/LibraryView.vue';
import type { JobSelection } from '@common/bridge/job-pages';
import { fakePages } from './fake-pages';

type Handler = (...args: unknown[]) => unknown;

/** A StudioWindowApi answering from plain functions, recording calls and letting a test push events. */
export function fakeApi(handlers: Record<string, Handler>) {
  const calls: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const callProxy = new Proxy(
    {},
    {
      get:
        (_target, channel: string) =>
        async (...args: unknown[]): Promise<BridgeOutcome> => {
          calls.push({ channel, args });
          const handler = handlers[channel];
          if (!handler) return { ok: false, error: { message: `no fake for ${channel}` } };
          try {
            return { ok: true, value: await handler(...args) };
          } catch (error) {
            return { ok: false, error: { message: error instanceof Error ? error.message : String(error) } };
          }
        },
    },
  );
  const eventProxy = new Proxy(
    {},
    {
      get: (_target, event: string) => (handler: (payload: unknown) => void) => {
        const set = listeners.get(event) ?? new Set();
        set.add(handler);
        listeners.set(event, set);
        return () => set.delete(handler);
      },
    },
  );
  const api = { calls: callProxy, events: eventProxy } as StudioWindowApi;
  const push = (event: string, payload: unknown) => {
    for (const handler of listeners.get(event) ?? []) handler(payload);
  };
  return { api, calls, push };
}

/** Mounts the Library workspace (inside message and dialog providers, with a fresh Pinia) against fake handlers. */
export function mountLibraryWith(handlers: Record<string, Handler>) {
  // The Library asks for pages and totals: answered over the test's jobs.list, as the host answers them.
  const pages = fakePages(handlers);
  const remove = handlers['jobs.remove'];
  // The downloads' handlers see ids, as the host's do once it has walked a selection.
  const walked = Object.fromEntries(
    ['downloads.start', 'downloads.preview', 'downloads.rename'].flatMap((channel) => {
      const handler = handlers[channel];
      if (!handler) return [];
      const wrapped = async (request: unknown) => {
        const asked = request as { jobIds: string[]; selection?: JobSelection };
        return handler({ ...asked, jobIds: await pages.chosen(asked) });
      };
      return [[channel, wrapped]];
    }),
  );
  const fake = fakeApi({
    ...pages.handlers,
    ...handlers,
    ...walked,
    ...(remove && {
      'jobs.remove': async (...args: unknown[]) => {
        const answer = await remove(...args);
        pages.remove(args[0] as string);
        return answer;
      },
    }),
  });
  const push = fake.push;
  fake.push = (event: string, payload: unknown) => {
    pages.follow(event, payload);
    push(event, payload);
  };
  useStudioApi(fake.api);
  const pinia = createPinia();
  setActivePinia(pinia);
  const Root = defineComponent({
    render: () =>
      h(NMessageProvider, null, { default: () => h(NDialogProvider, null, { default: () => h(LibraryView) }) }),
  });
  const wrapper = mount(Root, { global: { plugins: [pinia] }, attachTo: document.body });
  return { wrapper, fake, chosen: pages.chosen };
}
