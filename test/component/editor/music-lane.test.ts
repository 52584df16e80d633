// The timeline's music row: a block under each scene that plays music (the project's running on, a
// scene's own, none), drawn from the file's peaks with its fades, and a click selects the scene.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, getActivePinia, setActivePinia } from 'pinia';
import { addScene, createProject, defaultMusicTrack, setProjectMusic, setSceneMusic } from '@common/composition';
import { sceneSpans } from '@/timeline/timeline-math';
import { useProjectStore } from '@/stores/project';
import MusicLane from '@/timeline/MusicLane.vue';

// A flat music file of 10 s: the bars show only where it plays and its fades.
vi.mock('@/composables/host-peaks', () => ({
  hostPeaks: async () => ({ peaks: [Array(100).fill(0.5)], duration: 10 }),
}));

describe('music lane', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('draws the project track under its scenes, none where a scene says so, and selects a scene on click', async () => {
    const store = useProjectStore();
    let doc = addScene(addScene(createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' })));
    doc = setProjectMusic(doc, {
      ...defaultMusicTrack('file:///granted/bed.mp3', 'bed.mp3'),
      fadeInMs: 2000,
      fadeOutMs: 0,
    });
    doc = setSceneMusic(doc, doc.scenes[2].id, { none: true });
    store.load(doc, 'p');
    const wrapper = mount(MusicLane, {
      props: { spans: sceneSpans(doc.scenes), pxPerMs: 0.048 },
      global: { plugins: [getActivePinia()!] },
    });
    await flushPromises();
    const blocks = wrapper.findAll('.music-block');
    expect(blocks.map((b) => b.attributes('aria-label'))).toEqual([
      'Music in scene 1: bed.mp3',
      'Music in scene 2: bed.mp3',
    ]);
    expect(wrapper.find('.music-none').text()).toBe('No music');
    // Scene 1 fades in: its first bar is lower than its last; scene 2 carries on at full level.
    const heights = (i: number): number[] => blocks[i].findAll('rect').map((r) => Number(r.attributes('height')));
    expect(heights(0)[0]).toBeLessThan(heights(0).at(-1)!);
    expect(new Set(heights(1)).size).toBe(1);
    await blocks[1].trigger('click');
    expect(wrapper.emitted('selectScene')).toEqual([[doc.scenes[1].id]]);
  });

  it('invites adding music when the project has none', async () => {
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' }), 'p');
    const wrapper = mount(MusicLane, {
      props: { spans: sceneSpans(store.doc.scenes), pxPerMs: 0.048 },
      global: { plugins: [getActivePinia()!] },
    });
    expect(wrapper.text()).toContain("add it in the scene's inspector");
  });
});
