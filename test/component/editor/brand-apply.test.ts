// "Apply brand kit" on the open project: every style measured by the page's rasteriser first, then the
// whole change is one undo step.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';

vi.mock('@/text/page-rasteriser', () => import('./fake-rasteriser'));

import { createProject, DEFAULT_BRAND_KIT, presetStyle, type BrandKit } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import { applyBrandToOpenProject } from '@/views/editor/brand-apply';

const kit: BrandKit = {
  ...DEFAULT_BRAND_KIT,
  colours: { primary: '#e11d48', secondary: '#f1f5f9', text: '#0f172a', background: '#fff7ed' },
  fonts: { heading: 'DejaVu Serif', body: 'Source Sans 3' },
  logo: {
    url: 'file:///brand/logo.png',
    name: 'logo.png',
    mediaSize: { width: 400, height: 200 },
    corner: 'bottom-left',
    sizePercent: 10,
  },
};

describe('apply brand kit to the open project', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('restyles, adds the logo, says what it did, and one Undo takes it all back', async () => {
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p1', name: 'Launch' }), 'p1');
    store.addText(presetStyle(store.doc, 'title'), { width: 480, height: 115 }, 'centre');
    store.addScene();
    const before = store.doc;
    const said = await applyBrandToOpenProject(store, kit);
    expect(said).toBe(
      "Brand kit applied: 1 text element(s) in the brand's fonts and colours, the logo bottom left. Undo takes it back.",
    );
    expect(store.doc.background).toBe('#fff7ed');
    expect(store.doc.scenes.map((s) => s.elements.filter((e) => e.role === 'logo').length)).toEqual([1, 1]);
    expect(store.doc.scenes[0].elements.find((e) => e.type === 'text')!.text!.fontFamily).toBe('DejaVu Serif');
    store.undo();
    expect(store.doc).toBe(before);
    expect(await applyBrandToOpenProject(store, kit)).toMatch(/^Brand kit applied/);
    expect(await applyBrandToOpenProject(store, kit)).toBe('The project already has the brand kit applied.');
  });

  it('keeps each text in its brand role when the kit is applied again after the texts were resized and moved', async () => {
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p2', name: 'Roles' }), 'p2');
    const title = store.addText(presetStyle(store.doc, 'title'), { width: 480, height: 115 }, 'centre')!;
    const lower = store.addText(presetStyle(store.doc, 'lower-third'), { width: 520, height: 160 }, 'lower-left')!;
    await applyBrandToOpenProject(store, kit);
    const styleOf = (id: string) => store.doc.scenes[0].elements.find((e) => e.id === id)!;
    expect(styleOf(title).role).toBe('title');
    expect(styleOf(lower).role).toBe('lower-third');
    expect(styleOf(lower).text!.box!.colour).toBe(kit.colours.primary);

    // The title made small, the lower third moved to the top: by their look they would now be body text.
    const t = styleOf(title);
    store.resizeElement({ id: title, x: t.x, y: t.y, width: t.width / 4, height: t.height / 4 });
    store.moveElements([{ id: lower, x: 60, y: 60 }]);
    // Applied again with another heading font, so the kit has something to restyle.
    await applyBrandToOpenProject(store, { ...kit, fonts: { heading: 'DejaVu Sans Mono', body: 'Source Sans 3' } });
    expect(styleOf(title).text!.fontFamily).toBe('DejaVu Sans Mono');
    expect(styleOf(lower).text!.fontFamily).toBe('Source Sans 3');
    expect(styleOf(lower).text!.box!.colour).toBe(kit.colours.primary);
    expect([styleOf(title).role, styleOf(lower).role]).toEqual(['title', 'lower-third']);
  });
});
