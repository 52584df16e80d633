// The text inspector's number fields (font size, line height) and the Width of a text element: a typed
// value reaches the document as one undo step, whether the edit ends with Tab (blur) or Enter, and the
// field keeps showing it; Width re-wraps the text at that width instead of squashing its picture.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { ref } from 'vue';

// While `held` is set, a measurement waits for it, as one waits for a font file to load.
const measuring = vi.hoisted(() => ({ held: null as Promise<void> | null }));

// A stand-in for the font's measurements: every letter half an em wide, lines wrapped at wrapWidth.
vi.mock('@/text/page-rasteriser', () => ({
  fontKnowledge: ref(0),
  systemFontsCapped: ref(false),
  systemFontCatalogue: async () => [],
  pageRasteriser: () => ({
    layout: async (style: { content: string; fontSize: number; lineHeight: number; wrapWidth: number | null }) => {
      await measuring.held;
      const natural = style.content.length * style.fontSize * 0.5;
      const width = style.wrapWidth ?? natural;
      const lines = Math.max(1, Math.ceil(natural / width));
      return { width, height: lines * style.fontSize * style.lineHeight, lines: [], box: null };
    },
  }),
}));

import { createProject, presetStyle } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import { mountInspector } from './inspector-host';
import { until } from '../../wait';

function setup() {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
  // Shadow and outline off, so the box is exactly the text (no bleed around it).
  const style = { ...presetStyle(store.doc, 'title'), content: 'Launch day', fontSize: 128, shadow: null };
  const id = store.addText(style, { width: 640, height: 153.6 }, 'centre')!;
  store.markSaved('p');
  return { store, id, wrapper: mountInspector(store) };
}

type Wrapper = ReturnType<typeof setup>['wrapper'];
const input = (wrapper: Wrapper, label: string) => wrapper.get(`input[aria-label="${label}"]`);
const shown = (wrapper: Wrapper, label: string) => (input(wrapper, label).element as HTMLInputElement).value;

describe('text inspector number fields', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    measuring.held = null;
  });

  it('applies a font size typed and left with Tab, keeps showing it, and one undo takes it back', async () => {
    const { store, wrapper } = setup();
    const text = () => store.currentScene.elements[0];
    await input(wrapper, 'Font size').setValue('104');
    await input(wrapper, 'Font size').trigger('blur');
    await until('the font size to reach the document', () => text().text!.fontSize === 104);
    await flushPromises();
    expect(shown(wrapper, 'Font size')).toBe('104');
    // Measured again: the box follows the new size (10 letters at half an em), and the project is unsaved.
    expect(text().width).toBe(520);
    expect(store.dirty).toBe(true);
    store.undo();
    await flushPromises();
    expect(text().text!.fontSize).toBe(128);
    expect(text().width).toBe(640);
    expect(shown(wrapper, 'Font size')).toBe('128');
    expect(store.dirty).toBe(false);
  });

  it('applies a line height committed with Enter as one undo step', async () => {
    const { store, wrapper } = setup();
    const text = () => store.currentScene.elements[0];
    await input(wrapper, 'Line height').setValue('1.5');
    await input(wrapper, 'Line height').trigger('keydown', { key: 'Enter' });
    await until('the line height to reach the document', () => text().text!.lineHeight === 1.5);
    expect(text().height).toBe(192);
    expect(store.canUndo).toBe(true);
    store.undo();
    expect(text().text!.lineHeight).toBe(presetStyle(store.doc, 'title').lineHeight);
    // Adding the text was the only step before this one.
    store.undo();
    expect(store.currentScene.elements).toEqual([]);
  });

  it('a Width typed for a text re-wraps its lines at that width, keeping the letters their size', async () => {
    const { store, wrapper } = setup();
    const text = () => store.currentScene.elements[0];
    await input(wrapper, 'Width').setValue('400');
    await input(wrapper, 'Width').trigger('blur');
    await until('the text to wrap', () => text().text!.wrapWidth !== null);
    // Two lines at the same font size: twice as tall, not squashed into 400 × 153.6.
    expect(text()).toMatchObject({ width: 400, height: 307.2, text: { fontSize: 128, wrapWidth: 400 } });
    store.undo();
    expect(text()).toMatchObject({ width: 640, text: { wrapWidth: null } });
  });

  it('keeps showing the typed size while the rasteriser is still measuring it', async () => {
    const { store, wrapper } = setup();
    let release = (): void => undefined;
    measuring.held = new Promise((resolve) => (release = resolve));
    await input(wrapper, 'Font size').setValue('104');
    await input(wrapper, 'Font size').trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements[0].text!.fontSize).toBe(128);
    expect(shown(wrapper, 'Font size')).toBe('104');
    release();
    await until('the font size to reach the document', () => store.currentScene.elements[0].text!.fontSize === 104);
    await flushPromises();
    expect(shown(wrapper, 'Font size')).toBe('104');
  });

  it('a Height typed for a text scales it whole, as its corner handle does', async () => {
    const { store, wrapper } = setup();
    await input(wrapper, 'Height').setValue('307.2');
    await input(wrapper, 'Height').trigger('blur');
    await flushPromises();
    expect(store.currentScene.elements[0]).toMatchObject({ width: 1280, height: 307.2, text: { fontSize: 128 } });
  });
});
