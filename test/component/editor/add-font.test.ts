// A brand's own font file added from the text inspector: the host's answer (a face, or a refusal that
// names the file) reaches the user, the picker lists the family under "Your fonts", and the text that
// asked for it is drawn in it.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { SelectGroupOption } from 'naive-ui';
import { ref } from 'vue';
import type { SystemFontFace } from '@common/composition';

const host = vi.hoisted(() => ({ faces: [] as SystemFontFace[], sent: [] as Array<{ name: string; base64: string }> }));
const BRAND: SystemFontFace = {
  id: 'b'.repeat(16),
  family: 'Brand Sans',
  weight: 700,
  italic: false,
  file: 'BrandSans-Bold.ttf',
  own: true,
};

vi.mock('@/bridge', () => ({
  call: vi.fn(async (channel: string, arg: { name: string; base64: string }) => {
    if (channel !== 'text.addFont') throw new Error(`unexpected call ${channel}`);
    host.sent.push(arg);
    if (!arg.name.endsWith('.ttf'))
      throw new Error(`"${arg.name}" is not a font file (TTF, OTF or WOFF2): it was not added.`);
    host.faces = [BRAND];
    return BRAND;
  }),
}));

// Measured as a stand-in font would be (every letter half an em); the catalogue is the host's list.
vi.mock('@/text/page-rasteriser', () => ({
  fontKnowledge: ref(0),
  systemFontsCapped: ref(false),
  systemFontCatalogue: async () => host.faces,
  refreshFontCatalogue: async () => host.faces,
  pageRasteriser: () => ({
    layout: async (style: { content: string; fontSize: number; lineHeight: number }) => ({
      width: style.content.length * style.fontSize * 0.5,
      height: style.fontSize * style.lineHeight,
      lines: [],
      box: null,
    }),
  }),
}));

import { createProject, presetStyle } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import { useFontOptions } from '@/text/font-options';
import { mountInspector } from './inspector-host';
import { until } from '../../wait';

function setup() {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
  const id = store.addText(
    { ...presetStyle(store.doc, 'title'), content: 'Launch day' },
    { width: 640, height: 154 },
    'centre',
  )!;
  return { store, id, wrapper: mountInspector(store) };
}

function pick(wrapper: ReturnType<typeof setup>['wrapper'], file: File): Promise<void> {
  const input = wrapper.get('[data-testid="add-font-input"]');
  Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
  return input.trigger('change');
}

const textOf = (store: ReturnType<typeof useProjectStore>, id: string) =>
  store.doc.scenes[0].elements.find((e) => e.id === id)!.text!;

describe('adding a font file in the text inspector', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    host.faces = [];
    host.sent = [];
    document.body.innerHTML = '';
  });

  it('refuses a file that is not a font with the reason naming it, and changes nothing', async () => {
    const { store, id, wrapper } = setup();
    await pick(wrapper, new File([Uint8Array.from([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    await until(
      'the refusal naming the file',
      () => document.body.textContent?.includes('"logo.png" is not a font file') ?? false,
      10_000,
    );
    expect(textOf(store, id).fontFamily).toBe('Source Sans 3');
    wrapper.unmount();
  });

  it("sends the file's bytes, lists the family under Your fonts, and draws the text in it", async () => {
    const { store, id, wrapper } = setup();
    const bytes = Uint8Array.from([0, 1, 0, 0, 9, 8, 7]);
    await pick(wrapper, new File([bytes], 'BrandSans-Bold.ttf'));
    await until('the text drawn in the added font', () => textOf(store, id).fontFamily === 'Brand Sans', 10_000);
    expect(host.sent).toEqual([{ name: 'BrandSans-Bold.ttf', base64: Buffer.from(bytes).toString('base64') }]);
    expect(textOf(store, id).fontWeight).toBe(700);
    await flushPromises();
    const groups = useFontOptions(() => 'Brand Sans').value as SelectGroupOption[];
    expect(groups.find((g) => g.key === 'own')?.children?.map((o) => o.label)).toEqual(['Brand Sans']);
    expect(document.body.textContent).toContain('Added Brand Sans');
    wrapper.unmount();
  });
});
