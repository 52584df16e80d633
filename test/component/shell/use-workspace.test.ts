import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import { useWorkspace } from '@/shell/use-workspace';

function harness() {
  let current!: ReturnType<typeof useWorkspace>;
  const wrapper = mount(
    defineComponent({
      setup() {
        current = useWorkspace();
        return () => h('div', current.value);
      },
    }),
  );
  return { wrapper, current: () => current };
}

function press(init: KeyboardEventInit): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  window.dispatchEvent(event);
  return event;
}

describe('useWorkspace', () => {
  afterEach(() => {
    window.location.hash = '';
  });

  it('starts from the address hash and writes changes back to it', async () => {
    window.location.hash = '#/tools';
    const { wrapper, current } = harness();
    expect(current().value).toBe('tools');
    current().value = 'library';
    await nextTick();
    expect(window.location.hash).toBe('#/library');
    wrapper.unmount();
  });

  it('switches with Ctrl, Cmd or Alt plus a digit, and ignores other combinations', async () => {
    const { wrapper, current } = harness();
    expect(press({ key: '2', ctrlKey: true }).defaultPrevented).toBe(true);
    expect(current().value).toBe('voices');
    press({ key: '5', metaKey: true });
    expect(current().value).toBe('settings');
    press({ key: '3', code: 'Digit3', altKey: true });
    expect(current().value).toBe('library');
    expect(press({ key: '1' }).defaultPrevented).toBe(false);
    press({ key: '1', ctrlKey: true, shiftKey: true });
    press({ key: '9', ctrlKey: true });
    expect(current().value).toBe('library');
    wrapper.unmount();
  });
});
