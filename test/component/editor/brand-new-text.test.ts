// Text added after the brand kit takes its fonts and colours for the role it plays, and keeps that role,
// so applying the kit again restyles it the same way. A project without the kit is left as it was.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { BrandKit } from '@common/composition';

const host = vi.hoisted(() => ({ kit: null as BrandKit | null, asked: 0 }));
vi.mock('@/bridge', () => ({
  call: vi.fn(async (channel: string) => {
    if (channel !== 'brand.get') throw new Error(`unexpected call ${channel}`);
    host.asked += 1;
    return host.kit;
  }),
}));
vi.mock('@/text/page-rasteriser', () => import('./fake-rasteriser'));

import { createProject, DEFAULT_BRAND_KIT, presetStyle } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import { useEditorText } from '@/text/editor-text';
import { applyBrandToOpenProject } from '@/views/editor/brand-apply';

const kit: BrandKit = {
  ...DEFAULT_BRAND_KIT,
  colours: { primary: '#e11d48', secondary: '#f1f5f9', text: '#0f172a', background: '#fff7ed' },
  fonts: { heading: 'DejaVu Serif', body: 'DejaVu Sans Mono' },
};

describe('text added after the brand kit', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    host.kit = kit;
    host.asked = 0;
  });

  it("takes the kit's font and colours for its role, and keeps the role", async () => {
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'Branded' }), 'p');
    store.addText(presetStyle(store.doc, 'title'), { width: 480, height: 115 }, 'centre');
    await applyBrandToOpenProject(store, kit);
    const text = useEditorText(store, (m) => {
      throw new Error(m);
    });
    const title = (await text.addText('title'))!;
    const lower = (await text.addText('lower-third'))!;
    const el = (id: string) => store.doc.scenes[0].elements.find((e) => e.id === id)!;
    expect(el(title)).toMatchObject({ role: 'title', text: { fontFamily: 'DejaVu Serif', colour: kit.colours.text } });
    expect(el(lower).role).toBe('lower-third');
    expect(el(lower).text).toMatchObject({ fontFamily: 'DejaVu Sans Mono', box: { colour: kit.colours.primary } });
  });

  it('leaves text added to a project without the kit in the preset look, and does not ask for the kit', async () => {
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'q', name: 'Plain' }), 'q');
    const id = (await useEditorText(store, () => undefined).addText('title'))!;
    const el = store.doc.scenes[0].elements.find((e) => e.id === id)!;
    expect(el.role).toBeUndefined();
    expect(el.text!.fontFamily).toBe(presetStyle(store.doc, 'title').fontFamily);
    expect(host.asked).toBe(0);
  });
});
