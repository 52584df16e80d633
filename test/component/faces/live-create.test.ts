import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider } from 'naive-ui';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';

const host = vi.hoisted(() => ({ asked: [] as string[], sessionsArrive: null as null | (() => void) }));
vi.mock('@/bridge', () => ({
  call: vi.fn((channel: string) => {
    host.asked.push(channel);
    // The list of open sessions is slow to come: the tab must be usable meanwhile.
    if (channel === 'live.sessions') return new Promise((resolve) => (host.sessionsArrive = () => resolve([])));
    if (channel === 'jobs.quote') return new Promise(() => undefined);
    return Promise.reject(new Error(`unexpected call ${channel}`));
  }),
}));

import LiveFaceSwapTool from '@/views/tools/faces/LiveFaceSwapTool.vue';
import { chosenFaces } from '@/views/tools/faces/chosen-faces';

afterEach(() => {
  chosenFaces.splice(0);
  host.asked = [];
  document.body.innerHTML = '';
});

describe('the live face swap tab', () => {
  it('asks the price of a session pressed for while the open sessions are still being read', async () => {
    chosenFaces.push({ path: 'https://cdn.example/faces/f0.jpg', opts: '64,60:148,60:106,98:106,138' });
    const wrapper = mount(
      defineComponent({ render: () => h(NDialogProvider, null, { default: () => h(LiveFaceSwapTool) }) }),
      { attachTo: document.body },
    );
    await flushPromises();
    expect(host.asked).toEqual(['live.sessions']);
    const create = wrapper.findAll('button').find((b) => b.text() === 'Create session');
    expect(create?.classes()).not.toContain('n-button--loading');
    await create?.trigger('click');
    await flushPromises();
    expect(host.asked).toEqual(['live.sessions', 'jobs.quote']);
    host.sessionsArrive?.();
  });
});
