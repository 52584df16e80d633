// Media keep their real sizes: a 1680×1050 photo taken in from disk is previewed from a still 1280 px
// wide, and was recorded as 1280×800 (the stretch warning then quoted the wrong size). The host's
// measure of the file is what the element records.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { createProject } from '@common/composition';

vi.mock('@/bridge', () => ({
  importLocalFile: vi.fn(async (file: File) => ({
    url: `file:///granted/${file.name}`,
    name: file.name,
    info: { kind: 'image', format: 'jpeg', width: 1680, height: 1050, rotation: 0, hasAudio: false, durationMs: null },
  })),
  call: vi.fn(),
}));

import { takeInLocalFiles } from '@/composables/local-files';
import { useEditorInsert } from '@/composables/editor-insert';
import type { MediaCache } from '@/composables/editor-media';
import { useProjectStore } from '@/stores/project';

describe('media sizes', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it("records a local photo at the file's own size, not the preview still's", async () => {
    const img = document.createElement('img');
    Object.defineProperty(img, 'naturalWidth', { value: 1280 });
    Object.defineProperty(img, 'naturalHeight', { value: 800 });
    // What the page loaded: the host's still of the photo, 1280 px wide.
    const stillCache = { get: () => ({ kind: 'image', status: 'ready', element: img }) } as unknown as MediaCache;
    const { assets, errors } = await takeInLocalFiles([new File([new Uint8Array(8)], 'office.jpg')]);
    expect(errors).toEqual([]);
    expect(assets[0].size).toEqual({ width: 1680, height: 1050 });
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
    const id = await useEditorInsert(store, stillCache).addMedia(assets[0]);
    const element = store.doc.scenes[0].elements.find((e) => e.id === id)!;
    expect(element.mediaSize).toEqual({ width: 1680, height: 1050 });
    expect(element.width / element.height).toBeCloseTo(1680 / 1050, 2);
  });
});
