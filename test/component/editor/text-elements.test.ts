// Text in the editor: adding and restyling through the store are single undo steps; the canvas shows
// a text's picture once the rasteriser has drawn it; at submit the body's text references become the
// host's pictures (local files the upload step then links), each asked for at its box's pixel size.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';

const bridge = vi.hoisted(() => ({ asked: [] as unknown[] }));
vi.mock('@/bridge', () => ({
  call: vi.fn(async (channel: string, args: { width: number; height: number }) => {
    bridge.asked.push([channel, args]);
    return { url: `file:///data/text-${args.width}x${args.height}.png`, width: args.width, height: args.height };
  }),
}));

import { createProject, presetStyle, toAvatarVideoBody, type TextStyle } from '@common/composition';
import type { TextRasteriser } from '@common/text/text-rasteriser';
import { useProjectStore } from '@/stores/project';
import { TextPictures } from '@/text/text-pictures';
import { withTextPictures } from '@/text/submit-text';
import { sceneToItems } from '@/canvas/scene-items';
import { until } from '../../wait';

function fresh() {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p1', name: 'Text' }), 'p1');
  return store;
}

describe('text elements in the editor', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('adding and restyling are one undo step each, and the box keeps its scale', () => {
    const store = fresh();
    const style = presetStyle(store.doc, 'title');
    const id = store.addText(style, { width: 400, height: 120 }, 'centre')!;
    expect(store.selectedIds).toEqual([id]);
    store.resizeElement({ id, x: 100, y: 100, width: 800, height: 240 });
    store.restyleText(id, { ...style, content: 'Longer words' }, { width: 500, height: 120 });
    expect(store.currentScene.elements[0]).toMatchObject({
      width: 1000,
      height: 240,
      text: { content: 'Longer words' },
    });
    store.undo();
    expect(store.currentScene.elements[0]).toMatchObject({ width: 800, text: { content: style.content } });
    store.undo();
    store.undo();
    expect(store.currentScene.elements).toEqual([]);
  });

  it('the canvas labels a text by its name, or by its first line when it has none, following an edit', () => {
    const store = fresh();
    const style = presetStyle(store.doc, 'title');
    const id = store.addText(style, { width: 400, height: 120 }, 'centre')!;
    store.patchElement(id, { name: undefined });
    store.restyleText(id, { ...style, content: 'Launch day\nis here' }, { width: 500, height: 240 });
    const label = () =>
      sceneToItems(
        store.currentScene,
        store.doc.output,
        () => null,
        () => null,
      )[0].label;
    expect(label()).toBe('Launch day');
    store.patchElement(id, { name: 'Headline' });
    expect(label()).toBe('Headline');
  });

  it('the project records the fonts its text uses, also after a paste or a delete', () => {
    const store = fresh();
    const id = store.addText(presetStyle(store.doc, 'lower-third'), { width: 400, height: 120 }, 'lower-left')!;
    expect(store.doc.fonts?.map((f) => f.file)).toEqual(['SourceSans3-Regular.ttf']);
    store.select([id]);
    store.deleteSelected();
    expect(store.doc.fonts).toBeUndefined();
    store.undo();
    expect(store.doc.fonts?.map((f) => f.file)).toEqual(['SourceSans3-Regular.ttf']);
  });

  it('the canvas draws the picture once it is ready, and a text that cannot be drawn stays an outline', async () => {
    const store = fresh();
    const style = presetStyle(store.doc, 'title');
    store.addText(style, { width: 400, height: 120 }, 'centre');
    store.addText({ ...style, fontFamily: 'Missing' }, { width: 400, height: 120 }, 'lower-left');
    const rasterise = vi.fn(async (s: TextStyle, size: { width: number; height: number }) => {
      if (s.fontFamily === 'Missing') throw new Error('no such font');
      return { png: new Uint8Array([137, 80, 78, 71]), pixels: new Uint8Array(), ...size };
    });
    const pictures = new TextPictures(() => ({ rasterise }) as unknown as TextRasteriser);
    const items = () =>
      sceneToItems(
        store.currentScene,
        store.doc.output,
        () => null,
        (e) => pictures.of(e),
      );
    expect(items().map((i) => i.src)).toEqual([null, null]);
    await until("the first text's picture", () => items()[0].src !== null);
    expect(items()[0].src).toBe('data:image/png;base64,iVBORw==');
    expect(items()[1].src).toBeNull();
    expect(items()[1].text).toBe(true);
    expect(rasterise).toHaveBeenCalledWith(style, { width: 400, height: 120 });
  });

  it('at submit each text reference in the body becomes the host picture, asked for at the box in whole pixels', async () => {
    const store = fresh();
    const style = presetStyle(store.doc, 'title');
    const id = store.addText(style, { width: 400.4, height: 120.6 }, 'centre')!;
    bridge.asked.length = 0;
    const body = toAvatarVideoBody(store.doc);
    const sent = (await withTextPictures(body, store.doc)) as typeof body;
    expect(sent.data[0].elements[0]).toMatchObject({ id, type: 'image', url: 'file:///data/text-400x121.png' });
    expect(bridge.asked).toEqual([['text.picture', { style, width: 400, height: 121 }]]);
    expect(body.data[0].elements[0].url).toBe(`studio-text:${id}`);
  });
});
