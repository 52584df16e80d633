// The canvas's Play has the music under the voice: each scene with music gets the host's mix (the one
// Preview plays), asked for again only when its music or voice changes, played in place of the bare
// voice once it is ready (taking over mid-scene), and the music row says when Play has no music yet or
// cannot have it, and why.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick, provide, ref } from 'vue';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, getActivePinia, setActivePinia } from 'pinia';
import {
  createProject,
  defaultMusicTrack,
  patchMusic,
  setProjectMusic,
  setSceneVoice,
  type Project,
  type Scene,
} from '@common/composition';
import type { MediaCache } from '@/composables/editor-media';
import { useEditorPlayback } from '@/composables/editor-playback';
import { CANVAS_MUSIC, CanvasMusic } from '@/music/canvas-music';
import { sceneSpans } from '@/timeline/timeline-math';
import { useProjectStore } from '@/stores/project';
import MusicLane from '@/timeline/MusicLane.vue';

vi.mock('@/composables/host-peaks', () => ({ hostPeaks: async () => null }));

const VOICE = 'http://127.0.0.1:9/voice.mp3';

function withMusic(): Project {
  const doc = setSceneVoice(
    createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' }),
    'scene-1',
    { kind: 'url', url: VOICE },
  );
  return setProjectMusic(doc, defaultMusicTrack('file:///granted/bed.mp3', 'bed.mp3'));
}

/** A loader that answers when told, and counts what it was asked. */
function deferredLoader() {
  const asked: string[] = [];
  const pending: { resolve: (url: string) => void; reject: (error: Error) => void }[] = [];
  const load = (project: Project, sceneId: string) => {
    asked.push(`${sceneId}@${project.music?.levelDb}`);
    return new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { asked, pending, load };
}

const revoked: string[] = [];
beforeEach(() => {
  revoked.length = 0;
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
});
afterEach(() => vi.restoreAllMocks());

describe('canvas music', () => {
  it('asks for a mix only when the music or the voice changes, and lets the old one go', async () => {
    const { asked, pending, load } = deferredLoader();
    const music = new CanvasMusic(load);
    let doc = withMusic();
    music.prepare(doc);
    music.prepare(doc);
    expect(asked).toEqual(['scene-1@-10']);
    expect(music.states.value.get('scene-1')).toEqual({ state: 'mixing' });
    expect(music.soundOf('scene-1')).toBeUndefined();
    pending[0].resolve('blob:mix-1');
    await flushPromises();
    expect(music.soundOf('scene-1')).toBe('blob:mix-1');

    doc = patchMusic(doc, { scope: 'project' }, { levelDb: -12 });
    music.prepare(doc);
    expect(asked).toEqual(['scene-1@-10', 'scene-1@-12']);
    expect(revoked).toEqual(['blob:mix-1']);
    // A mix that cannot be made says why; the scene plays its voice alone.
    pending[1].reject(new Error('Scene 1 (scene-1): the music (bed.mp3) could not be opened: gone.'));
    await flushPromises();
    expect(music.states.value.get('scene-1')).toEqual({
      state: 'failed',
      reason: 'Scene 1 (scene-1): the music (bed.mp3) could not be opened: gone.',
    });
    expect(music.soundOf('scene-1')).toBeUndefined();
  });

  // Fails when Play plays the scene's bare voice whatever the mix (the canvas heard no music).
  it("plays the scene's mix in place of its voice, taking over mid-scene when it arrives", () => {
    const scene: Scene = { id: 'scene-1', durationMs: 5000, voice: { kind: 'url', url: VOICE }, elements: [] };
    const media = { videos: () => [], get: () => ({ element: null }) } as unknown as MediaCache;
    const audio = {
      pause: () => undefined,
      play: async () => undefined,
      src: '',
      currentTime: 0,
      duration: 5,
    } as unknown as HTMLAudioElement;
    const made: { mix?: string } = {};
    let clock = 0;
    const frames: (() => void)[] = [];
    const playback = useEditorPlayback({
      scenes: ref([scene]),
      showScene: () => undefined,
      media,
      audio,
      soundOf: () => made.mix,
      now: () => clock,
      requestFrame: (cb) => frames.push(cb),
      cancelFrame: () => undefined,
    });
    playback.play();
    expect(audio.src).toBe(VOICE);
    made.mix = 'blob:mix-1';
    clock = 1500;
    frames.shift()!();
    expect(audio.src).toBe('blob:mix-1');
    expect(audio.currentTime).toBe(1.5);
    playback.pause();
    playback.seek(0);
    playback.play();
    expect(audio.src).toBe('blob:mix-1');
  });

  it('says on the music row that Play is mixing, then that it has no music and why', async () => {
    setActivePinia(createPinia());
    const store = useProjectStore();
    const doc = withMusic();
    store.load(doc, 'p');
    const { pending, load } = deferredLoader();
    const music = new CanvasMusic(load);
    music.prepare(doc);
    const Host = defineComponent({
      setup() {
        provide(CANVAS_MUSIC, music);
        return () => h(MusicLane, { spans: sceneSpans(doc.scenes), pxPerMs: 0.1 });
      },
    });
    const wrapper = mount(Host, { global: { plugins: [getActivePinia()!] } });
    await nextTick();
    const block = () => wrapper.find('.music-block');
    expect(block().attributes('data-canvas-music')).toBe('mixing');
    expect(block().text()).toContain('Mixing for Play…');
    pending[0].reject(
      new Error(
        'Scene 1 (scene-1): the speech is only text so far; generate the voiceover first, then the music is mixed under it.',
      ),
    );
    await flushPromises();
    expect(block().text()).toContain('Play: without music');
    expect(block().attributes('title')).toContain(
      "The canvas's Play has the voice without this music: Scene 1 (scene-1): the speech is only text so far",
    );
    pending.length = 0;
  });
});
