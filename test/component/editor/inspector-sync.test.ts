import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NConfigProvider, NMessageProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import { createProject } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import ElementInspector from '@/views/editor/ElementInspector.vue';

function setup() {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
  store.addToScene({ type: 'image', url: 'https://example.com/a.png', x: 100, y: 50, width: 480, height: 540 });
  store.addToScene({ type: 'image', url: 'https://example.com/b.png', x: 0, y: 0, width: 192, height: 108 });
  store.select(['el-1']);
  // Re-reads the element from the store on every render, as the editor view does.
  const Host = defineComponent(
    () => () =>
      h(NConfigProvider, null, () =>
        h(NMessageProvider, null, () =>
          store.selectedElements[0] ? h(ElementInspector, { element: store.selectedElements[0] }) : null,
        ),
      ),
  );
  return { store, wrapper: mount(Host, { attachTo: document.body }) };
}

function field(wrapper: ReturnType<typeof mount>, label: string) {
  return wrapper.get(`input[aria-label="${label}"]`);
}

describe('inspector and document stay in sync', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the exact values of the selected element', () => {
    const { wrapper } = setup();
    expect((field(wrapper, 'X').element as HTMLInputElement).value).toBe('100');
    expect((field(wrapper, 'Y').element as HTMLInputElement).value).toBe('50');
    expect((field(wrapper, 'Width').element as HTMLInputElement).value).toBe('480');
    expect((field(wrapper, 'Height').element as HTMLInputElement).value).toBe('540');
    expect((field(wrapper, 'Layer number').element as HTMLInputElement).value).toBe('1');
  });

  it('follows the document when the canvas changes it (a drag commit)', async () => {
    const { store, wrapper } = setup();
    store.moveElements([{ id: 'el-1', x: 321, y: 123 }]);
    await flushPromises();
    expect((field(wrapper, 'X').element as HTMLInputElement).value).toBe('321');
    expect((field(wrapper, 'Y').element as HTMLInputElement).value).toBe('123');
    store.resizeElement({ id: 'el-1', x: 321, y: 123, width: 960, height: 540 });
    await flushPromises();
    expect((field(wrapper, 'Width').element as HTMLInputElement).value).toBe('960');
  });

  it('writes a typed value to the document once the edit is finished, as one undo step', async () => {
    const { store, wrapper } = setup();
    const x = field(wrapper, 'X');
    await x.setValue('640');
    await x.trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements[0].x).toBe(640);
    store.undo();
    expect(store.currentScene.elements[0].x).toBe(100);
  });

  it('keeps the size within the frame whatever is typed', async () => {
    const { store, wrapper } = setup();
    const sx = field(wrapper, 'Width');
    await sx.setValue('3000');
    await sx.trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements[0].width).toBe(1920);
  });

  it('moves the element in the stacking order from the layer field', async () => {
    const { store, wrapper } = setup();
    const layer = field(wrapper, 'Layer number');
    await layer.setValue('2');
    await layer.trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements.find((e) => e.id === 'el-1')?.layer).toBe(2);
    expect(store.currentScene.elements.find((e) => e.id === 'el-2')?.layer).toBe(1);
  });
});
