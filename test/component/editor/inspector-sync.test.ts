import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NConfigProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import { createProject } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import ElementInspector from '@/views/editor/ElementInspector.vue';

function setup() {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
  store.addToScene({ type: 'image', url: 'https://example.com/a.png', offsetX: 100, offsetY: 50, scaleX: 0.25, scaleY: 0.5 });
  store.addToScene({ type: 'image', url: 'https://example.com/b.png', offsetX: 0, offsetY: 0, scaleX: 0.1, scaleY: 0.1 });
  store.select(['el-1']);
  // Re-reads the element from the store on every render, as the editor view does.
  const Host = defineComponent(() => () => h(NConfigProvider, null, () => (store.selectedElements[0] ? h(ElementInspector, { element: store.selectedElements[0] }) : null)));
  return { store, wrapper: mount(Host, { attachTo: document.body }) };
}

function field(wrapper: ReturnType<typeof mount>, label: string) {
  return wrapper.get(`input[aria-label="${label}"]`);
}

describe('inspector and document stay in sync', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the exact values of the selected element', () => {
    const { wrapper } = setup();
    expect((field(wrapper, 'Offset X').element as HTMLInputElement).value).toBe('100');
    expect((field(wrapper, 'Offset Y').element as HTMLInputElement).value).toBe('50');
    expect((field(wrapper, 'Scale X').element as HTMLInputElement).value).toBe('0.25');
    expect((field(wrapper, 'Scale Y').element as HTMLInputElement).value).toBe('0.5');
    expect((field(wrapper, 'Layer number').element as HTMLInputElement).value).toBe('1');
    expect(wrapper.text()).toContain('480 × 540 px');
  });

  it('follows the document when the canvas changes it (a drag commit)', async () => {
    const { store, wrapper } = setup();
    store.moveElements([{ id: 'el-1', x: 321, y: 123 }]);
    await flushPromises();
    expect((field(wrapper, 'Offset X').element as HTMLInputElement).value).toBe('321');
    expect((field(wrapper, 'Offset Y').element as HTMLInputElement).value).toBe('123');
    store.resizeElement({ id: 'el-1', x: 321, y: 123, width: 960, height: 540 });
    await flushPromises();
    expect((field(wrapper, 'Scale X').element as HTMLInputElement).value).toBe('0.5');
  });

  it('writes a typed value to the document once the edit is finished, as one undo step', async () => {
    const { store, wrapper } = setup();
    const x = field(wrapper, 'Offset X');
    await x.setValue('640');
    await x.trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements[0].offsetX).toBe(640);
    store.undo();
    expect(store.currentScene.elements[0].offsetX).toBe(100);
  });

  it('keeps scale within 0..1 whatever is typed', async () => {
    const { store, wrapper } = setup();
    const sx = field(wrapper, 'Scale X');
    await sx.setValue('3');
    await sx.trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements[0].scaleX).toBe(1);
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
