import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h } from 'vue';
import { NMessageProvider } from 'naive-ui';
import type { ConnectionsState } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import ConnectionsPanel from '@/views/settings/connections/ConnectionsPanel.vue';
import { fakeApi } from './fake-api';

function state(over: Partial<ConnectionsState['storage']> = {}): ConnectionsState {
  return {
    activeId: 'sandbox',
    storage: {
      protection: 'memory',
      persistent: false,
      notice: 'No system keyring is available (the "basic_text" backend). Secrets are kept for this run only.',
      canAcceptWeakStorage: true,
      weakStorageAccepted: false,
      ...over,
    },
    connections: [
      {
        id: 'sandbox',
        name: 'Sandbox',
        baseUrl: 'http://127.0.0.1:4780',
        builtIn: true,
        authKind: 'api-key',
        hasSecret: true,
        webhookUrl: null,
        active: true,
        placement: { anchor: 'centre', scale: 'frame', source: 'built-in', checkedAt: null },
      },
      {
        id: 'p',
        name: 'Production',
        baseUrl: 'https://api.example.com',
        builtIn: false,
        authKind: null,
        hasSecret: false,
        webhookUrl: null,
        active: false,
        placement: { anchor: 'centre', scale: 'frame', source: 'assumed', checkedAt: null },
      },
    ],
  };
}

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

function mountPanel(handlers: Record<string, (...args: unknown[]) => unknown>) {
  const fake = fakeApi({ 'connections.list': () => state(), ...handlers });
  useStudioApi(fake.api);
  const pinia = createPinia();
  setActivePinia(pinia);
  const Root = defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(ConnectionsPanel) }) });
  const wrapper = mount(Root, { global: { plugins: [pinia] }, attachTo: document.body });
  return { wrapper, fake };
}

describe('ConnectionsPanel', () => {
  it('tells plainly how secrets are kept and offers weaker storage only as an explicit choice', async () => {
    const { wrapper } = mountPanel({});
    await flushPromises();
    const notice = wrapper.find('[data-testid="storage-notice"]');
    expect(notice.text()).toContain('basic_text');
    expect(notice.text()).toContain('Store secrets with weak protection');
    expect(wrapper.find('[data-connection="Production"]').text()).toContain('No credentials');
    expect(wrapper.find('[data-connection="Sandbox"]').text()).toContain('Built-in key');
  });

  it('answers "Test" in words', async () => {
    const { wrapper, fake } = mountPanel({
      'connections.test': (id) =>
        id === 'p'
          ? {
              ok: false,
              message:
                'No credentials were sent. Add an API key or client id and secret to this connection in Settings.',
              detail: null,
              latencyMs: null,
            }
          : { ok: true, message: 'Connected. The service listed 6 voices in 12 ms.', detail: null, latencyMs: 12 },
    });
    await flushPromises();
    for (const name of ['Sandbox', 'Production']) {
      const row = wrapper.find(`[data-connection="${name}"]`);
      await row
        .findAll('button')
        .find((b) => b.text() === 'Test')
        ?.trigger('click');
    }
    await flushPromises();
    expect(wrapper.find('[data-connection="Sandbox"] [role="status"]').text()).toBe(
      'Connected. The service listed 6 voices in 12 ms.',
    );
    expect(wrapper.find('[data-connection="Production"] [role="status"]').text()).toMatch(/^No credentials were sent/);
    expect(fake.calls.filter((c) => c.channel === 'connections.test').map((c) => c.args[0])).toEqual(['sandbox', 'p']);
  });

  it('adds a connection and hands the key to the host once, as a password field', async () => {
    const { wrapper, fake } = mountPanel({
      'connections.add': () => ({ id: 'n', name: 'Staging' }),
      'connections.setSecret': () => ({}),
    });
    await flushPromises();
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Add connection')
      ?.trigger('click');
    await flushPromises();
    const input = (label: string) => document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
    expect(input('API key')?.type).toBe('password');
    for (const [label, value] of [
      ['Connection name', 'Staging'],
      ['Base URL', 'https://staging.example.com'],
      ['API key', 'sk-staging-123456'],
    ]) {
      const el = input(label);
      if (!el) throw new Error(`no ${label} field`);
      el.value = value;
      el.dispatchEvent(new Event('input'));
    }
    await flushPromises();
    document.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
    await flushPromises();
    expect(fake.calls.find((c) => c.channel === 'connections.add')?.args).toEqual([
      { name: 'Staging', baseUrl: 'https://staging.example.com', webhookUrl: null, callbacks: null },
    ]);
    expect(fake.calls.find((c) => c.channel === 'connections.setSecret')?.args).toEqual([
      'n',
      { kind: 'api-key', apiKey: 'sk-staging-123456' },
    ]);
  });

  it('takes callbacks on a connection: refuses an address the service must not be told, keeps a good one', async () => {
    const { wrapper, fake } = mountPanel({ 'connections.update': () => state().connections[1] });
    await flushPromises();
    await wrapper
      .find('[data-connection="Production"]')
      .findAll('button')
      .find((b) => b.text() === 'Edit')
      ?.trigger('click');
    await flushPromises();
    const input = (label: string) => document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
    // Loopback only unless the user names another address.
    expect(input('Callback listen address')?.value).toBe('127.0.0.1:8701');
    const type = async (label: string, value: string) => {
      const el = input(label);
      if (!el) throw new Error(`no ${label} field`);
      el.value = value;
      el.dispatchEvent(new Event('input'));
      await flushPromises();
    };
    const submit = async () => {
      document.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
      await flushPromises();
    };
    await type('Callback address', 'http://hooks.example.com/studio');
    await submit();
    expect(document.body.textContent).toContain(
      'callback address must be https:// (plain http:// only to this machine)',
    );
    await type('Callback address', 'https://hooks.example.com/studio');
    await type('Callback listen address', '127.0.0.1:99999');
    await submit();
    expect(document.body.textContent).toContain('listen address its port must be 1 to 65535');
    expect(fake.calls.filter((c) => c.channel === 'connections.update')).toEqual([]);

    await type('Callback listen address', '127.0.0.1:8702');
    await submit();
    expect(fake.calls.find((c) => c.channel === 'connections.update')?.args).toEqual([
      'p',
      {
        name: 'Production',
        baseUrl: 'https://api.example.com',
        webhookUrl: null,
        callbacks: { url: 'https://hooks.example.com/studio', listen: '127.0.0.1:8702' },
      },
    ]);
  });
});
