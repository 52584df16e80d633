// Notices merge: three "Speech ready" notices are one toast that counts them, not three stacked.
import { describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { NNotificationProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import type { Notice } from '@common/bridge';

const bridge = vi.hoisted(() => ({ listener: null as ((notice: Notice) => void) | null }));
vi.mock('@/bridge', () => ({
  call: vi.fn(async () => []),
  onEvent: vi.fn((_event: string, listener: (notice: Notice) => void) => {
    bridge.listener = listener;
    return () => undefined;
  }),
}));
vi.mock('@/shell/system-notifications', () => ({ showSystemNotification: () => undefined }));

import { useHostNotices } from '@/shell/use-notices';

describe('host notices', () => {
  it('merge into the open toast of the same title, counting them and keeping the newest details', async () => {
    const Uses = defineComponent(() => {
      useHostNotices();
      return () => null;
    });
    const wrapper = mount(() => h(NNotificationProvider, null, () => h(Uses)), { attachTo: document.body });
    await flushPromises();
    for (const scene of ['Scene 1', 'Scene 2', 'Scene 3'])
      bridge.listener!({ level: 'success', title: 'Speech ready', detail: `${scene}: its voiceover is made` });
    bridge.listener!({ level: 'error', title: 'A download failed', detail: 'disk full' });
    await flushPromises();
    const toasts = [...document.body.querySelectorAll('.n-notification')].map((n) => n.textContent ?? '');
    expect(toasts).toHaveLength(2);
    expect(toasts[0]).toContain('Speech ready (3)');
    expect(toasts[0]).toContain('Scene 3: its voiceover is made');
    expect(toasts[1]).toContain('A download failed');
    wrapper.unmount();
  });
});
