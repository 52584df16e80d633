import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type { BridgeOutcome, StudioWindowApi } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import App from '@/App.vue';

type Answers = Record<string, BridgeOutcome>;

/** A window.studio stand-in: fixed answers per call, and event handlers the test can fire. */
function fakeStudio(answers: Answers) {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const api = {
    calls: new Proxy(
      {},
      {
        get: (_t, channel: string) => async () =>
          answers[channel] ?? { ok: false, error: { message: `no answer for ${channel}` } },
      },
    ),
    events: new Proxy(
      {},
      {
        get: (_t, event: string) => (handler: (payload: unknown) => void) => {
          const set = handlers.get(event) ?? new Set();
          set.add(handler);
          handlers.set(event, set);
          return () => set.delete(handler);
        },
      },
    ),
  } as unknown as StudioWindowApi;
  const fire = (event: string, payload: unknown) => handlers.get(event)?.forEach((h) => h(payload));
  return { api, fire };
}

const info = { appVersion: '2.0.0', host: 'web', dataDir: '/d', logFile: null, platform: 'linux', startedAt: 1000 };

async function settle() {
  for (let i = 0; i < 5; i += 1) await flushPromises();
}

describe('StudioShell', () => {
  afterEach(() => {
    vi.useRealTimers();
    useStudioApi(undefined);
    window.location.hash = '';
  });

  it('says plainly when the host cannot be reached', async () => {
    window.location.hash = '#/tools';
    const { api } = fakeStudio({
      'system.info': {
        ok: false,
        error: { message: 'The studio host is not reachable; is it still running?', code: 'host-unreachable' },
      },
      'system.pendingNotices': { ok: true, value: [] },
    });
    useStudioApi(api);
    const wrapper = mount(App, { attachTo: document.body });
    await settle();
    expect(wrapper.text()).toContain('The studio host cannot be reached');
    expect(wrapper.text()).toContain('is it still running?');
    expect(wrapper.text()).toContain('Host not reachable');
    wrapper.unmount();
  });

  it('shows early notices, follows navigate events and shows the version', async () => {
    window.location.hash = '#/tools';
    const { api, fire } = fakeStudio({
      'system.info': { ok: true, value: info },
      'system.pendingNotices': {
        ok: true,
        value: [{ level: 'warning', title: 'Settings were set aside', detail: 'Defaults are in use.' }],
      },
    });
    useStudioApi(api);
    const wrapper = mount(App, { attachTo: document.body });
    await settle();
    expect(document.body.textContent).toContain('Settings were set aside');
    expect(wrapper.text()).toContain('Version 2.0.0');
    expect(wrapper.find('main').attributes('aria-label')).toBe('tools workspace');
    fire('system.navigate', 'voices');
    await settle();
    expect(wrapper.find('main').attributes('aria-label')).toBe('voices workspace');
    expect(wrapper.find('button[aria-current="page"]').text()).toContain('Voices');
    wrapper.unmount();
  });

  it('says when the host refuses the page, as a host restarted with a new access token does, not a green light', async () => {
    window.location.hash = '#/tools';
    const answers: Answers = {
      'system.info': { ok: true, value: info },
      'system.pendingNotices': { ok: true, value: [] },
    };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    useStudioApi(fakeStudio(answers).api);
    const wrapper = mount(App, { attachTo: document.body });
    await settle();
    expect(wrapper.find('.dot-ok').exists()).toBe(true);
    answers['system.info'] = {
      ok: false,
      error: { message: 'The studio host refused this page; open the address it printed again', code: 'host-refused' },
    };
    vi.advanceTimersToNextTimer();
    await settle();
    expect(wrapper.text()).toContain('The studio host no longer accepts this page');
    expect(wrapper.text()).toContain('Host refused this page');
    expect(wrapper.find('.dot-ok').exists()).toBe(false);
    wrapper.unmount();
  });

  it('says when the host restarted under the page, and offers to reload it', async () => {
    window.location.hash = '#/tools';
    const answers: Answers = {
      'system.info': { ok: true, value: info },
      'system.pendingNotices': { ok: true, value: [] },
    };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    useStudioApi(fakeStudio(answers).api);
    const wrapper = mount(App, { attachTo: document.body });
    await settle();
    vi.advanceTimersToNextTimer();
    await settle();
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
    // The same address answers again, from a host that started later: what the page holds is stale.
    answers['system.info'] = { ok: true, value: { ...info, startedAt: 2000 } };
    vi.advanceTimersToNextTimer();
    await settle();
    expect(wrapper.text()).toContain('The studio host restarted');
    expect(wrapper.text()).toContain('Host restarted');
    expect(wrapper.findAll('button').some((b) => b.text() === 'Reload')).toBe(true);
    wrapper.unmount();
  });
});
