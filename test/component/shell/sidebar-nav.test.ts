import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import SidebarNav from '@/shell/SidebarNav.vue';
import { workspaces } from '@/shell/workspaces';

describe('SidebarNav', () => {
  it('offers one button per workspace, named exactly by the workspace, and marks the current one', async () => {
    const wrapper = mount(SidebarNav, { props: { modelValue: 'library', info: null, kind: 'web', hostProblem: null } });
    const buttons = wrapper.findAll('nav[aria-label="Workspaces"] button');
    expect(buttons.map((b) => b.find('.nav-label').text())).toEqual([
      'Editor',
      'Voices',
      'Library',
      'Tools',
      'Settings',
      'Campaigns',
    ]);
    expect(buttons.map((b) => b.attributes('aria-current'))).toEqual([
      undefined,
      undefined,
      'page',
      undefined,
      undefined,
      undefined,
    ]);
    await buttons[4].trigger('click');
    expect(wrapper.emitted('update:modelValue')).toEqual([['settings']]);
  });

  it('shows the host and version, and a problem when the host cannot be reached', async () => {
    const wrapper = mount(SidebarNav, {
      props: {
        modelValue: 'editor',
        kind: 'electron',
        hostProblem: null,
        info: { appVersion: '1.2.3', host: 'electron', dataDir: '/d', logFile: null, platform: 'linux', startedAt: 1 },
      },
      // The balance reads the bridge (covered by the shell's e2e test).
      global: { stubs: { CreditBalance: true } },
    });
    expect(wrapper.text()).toContain('Desktop app');
    expect(wrapper.text()).toContain('Version 1.2.3');
    await wrapper.setProps({
      hostProblem: { short: 'Host not reachable', title: 'Down', message: 'Gone.', reload: false },
      info: null,
    });
    expect(wrapper.text()).toContain('Host not reachable');
    expect(wrapper.find('.dot-bad').exists()).toBe(true);
  });

  it('uses shortcuts 1 to 6 in sidebar order', () => {
    expect(workspaces.map((w) => w.key)).toEqual(['1', '2', '3', '4', '5', '6']);
  });
});
