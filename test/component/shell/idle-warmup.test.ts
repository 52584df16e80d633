// The shell writes the stylesheets of the parts workspaces open with while the page is idle, so a
// click on the Library does not spend its task writing the data table's styles.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { NConfigProvider } from 'naive-ui';
import { h } from 'vue';
import IdleWarmup from '@/shell/IdleWarmup.vue';

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.querySelectorAll('style[cssr-id]').forEach((style) => style.remove());
});

/** Idle callbacks held until the test runs them, as a page gets them once its thread is free. */
function heldIdleCallbacks() {
  const held: IdleRequestCallback[] = [];
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => held.push(callback));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  return {
    async runNext() {
      const next = held.shift();
      if (!next) throw new Error('no idle callback was asked for');
      next({ didTimeout: false, timeRemaining: () => 50 });
      await flushPromises();
    },
    get count() {
      return held.length;
    },
  };
}

const tableStyle = () => document.head.querySelector('style[cssr-id="n-data-table"]');

describe("the shell's idle warm-up", () => {
  it('writes the data table stylesheet only once the page is idle, then takes its hidden parts away', async () => {
    const idle = heldIdleCallbacks();
    const shell = mount(() => h(NConfigProvider, null, () => h(IdleWarmup)), { attachTo: document.body });
    await flushPromises();
    expect(tableStyle()).toBeNull();
    expect(idle.count).toBe(1);

    await idle.runNext();
    await vi.waitFor(() => expect(shell.find('.style-warmup').exists()).toBe(true), { timeout: 10_000 });
    expect(tableStyle()).not.toBeNull();
    expect(shell.find('.style-warmup').attributes('aria-hidden')).toBe('true');

    // The next idle moment removes the hidden parts; the stylesheet stays for the Library's table.
    await vi.waitFor(() => expect(idle.count).toBe(1), { timeout: 10_000 });
    await idle.runNext();
    await flushPromises();
    expect(shell.find('.style-warmup').exists()).toBe(false);
    expect(tableStyle()).not.toBeNull();
    shell.unmount();
  });

  it('does nothing in a page without idle callbacks', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const shell = mount(() => h(NConfigProvider, null, () => h(IdleWarmup)), { attachTo: document.body });
    await flushPromises();
    expect(shell.find('.style-warmup').exists()).toBe(false);
    expect(tableStyle()).toBeNull();
    shell.unmount();
  });
});
