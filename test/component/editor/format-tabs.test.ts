// The formats strip over the canvas: Add format lays a new layout out and opens it as one undo step, a
// tab switches the canvas back, × drops a format; the element timing fields write one undo step each
// and say where the timing holds (an avatar video's parts; not a talking avatar).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NConfigProvider, NMessageProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';

vi.mock('@/text/page-rasteriser', () => ({
  pageRasteriser: () => ({
    layout: async (style: { content: string; fontSize: number; wrapWidth: number | null }) => ({
      width: Math.min(style.content.length * style.fontSize * 0.5, style.wrapWidth ?? Infinity),
      height:
        style.fontSize * 1.2 * Math.ceil((style.content.length * style.fontSize * 0.5) / (style.wrapWidth ?? Infinity)),
      lines: [],
      box: null,
    }),
  }),
}));

import { createProject, presetStyle } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import FormatTabs from '@/views/editor/FormatTabs.vue';
import ElementTiming from '@/views/editor/ElementTiming.vue';

function setup() {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
  store.addToScene({ type: 'image', url: 'https://example.com/a.png', x: 100, y: 300, width: 800, height: 450 });
  store.addText(presetStyle(store.doc, 'title'), { width: 480, height: 115 }, 'centre');
  const wrapper = mount(
    defineComponent(() => () => h(NConfigProvider, null, () => h(NMessageProvider, null, () => h(FormatTabs)))),
    { attachTo: document.body },
  );
  return { store, wrapper };
}

const tabs = (wrapper: ReturnType<typeof mount>) =>
  wrapper.findAll('[role="tab"]').map((t) => `${t.text()}${t.attributes('aria-selected') === 'true' ? '*' : ''}`);

describe('formats strip', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('adds 9:16 and opens it in one undo step, switches back by its tab, and drops a format with ×', async () => {
    const { store, wrapper } = setup();
    const before = store.doc;
    expect(tabs(wrapper)).toEqual(['16:9*']);
    await wrapper.get('select[aria-label="Add format"]').setValue('9:16');
    await vi.waitFor(() => expect(store.doc.output).toEqual({ width: 1080, height: 1920 }));
    await flushPromises();
    expect(tabs(wrapper)).toEqual(['16:9', '9:16*']);
    const image = store.doc.scenes[0].elements.find((e) => e.type === 'image')!;
    expect(Math.abs(image.width / image.height / (800 / 450) - 1)).toBeLessThan(0.01);

    await wrapper.get('[aria-label="Format 16:9 · 1920×1080"]').trigger('click');
    await vi.waitFor(() => expect(store.doc.output).toEqual({ width: 1920, height: 1080 }));
    expect(store.doc.scenes).toEqual(before.scenes);
    await flushPromises();
    expect(tabs(wrapper)).toEqual(['16:9*', '9:16']);

    await wrapper.get('[aria-label="Remove format 9:16 · 1080×1920"]').trigger('click');
    expect(tabs(wrapper)).toEqual(['16:9*']);
    store.undo();
    store.undo();
    store.undo();
    expect(store.doc).toBe(before);
  });
});

describe('element timing fields', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('write From as one undo step and say the video shows it then: the scene is sent in parts', async () => {
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
    const id = store.addToScene({
      type: 'image',
      url: 'https://example.com/a.png',
      x: 0,
      y: 0,
      width: 400,
      height: 300,
    })!;
    const before = store.doc;
    const wrapper = mount(
      defineComponent(
        () => () => h(NConfigProvider, null, () => h(ElementTiming, { element: store.currentScene.elements[0] })),
      ),
      { attachTo: document.body },
    );
    expect(wrapper.find('[data-testid="timing-note"]').exists()).toBe(false);
    const from = wrapper.get('input[aria-label="Appears at"]');
    await from.setValue('2');
    await from.trigger('keydown', { key: 'Enter' });
    await from.trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements.find((e) => e.id === id)!.startMs).toBe(2000);
    expect(wrapper.get('[data-testid="timing-note"]').text()).toContain('the scene is sent to the service in parts');
    store.undo();
    expect(store.doc).toBe(before);
  });

  it('say a talking avatar shows a timed element for the whole scene', async () => {
    const store = useProjectStore();
    store.load(createProject({ kind: 'talking-avatar', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
    store.addToScene({ type: 'image', url: 'https://example.com/a.png', x: 0, y: 0, width: 400, height: 300 });
    const wrapper = mount(
      defineComponent(
        () => () => h(NConfigProvider, null, () => h(ElementTiming, { element: store.currentScene.elements[0] })),
      ),
      { attachTo: document.body },
    );
    const from = wrapper.get('input[aria-label="Appears at"]');
    await from.setValue('2');
    await from.trigger('keydown', { key: 'Enter' });
    await from.trigger('blur');
    await flushPromises();
    expect(wrapper.get('[data-testid="timing-note"]').text()).toContain('shows for the whole scene');
  });
});
