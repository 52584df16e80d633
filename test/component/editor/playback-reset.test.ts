import { describe, expect, it } from 'vitest';
import { nextTick, ref } from 'vue';
import type { Scene } from '@common/composition';
import type { MediaCache } from '@/composables/editor-media';
import { useEditorPlayback } from '@/composables/editor-playback';

const scene = (id: string, durationMs: number): Scene => ({ id, durationMs, voice: null, elements: [] });

function setup(scenes: Scene[]) {
  const list = ref(scenes);
  const media = { videos: () => [], get: () => ({ element: null }) } as unknown as MediaCache;
  const audio = {
    pause: () => undefined,
    play: async () => undefined,
    src: '',
    currentTime: 0,
  } as unknown as HTMLAudioElement;
  const playback = useEditorPlayback({
    scenes: list,
    showScene: () => undefined,
    media,
    audio,
    requestFrame: () => 1,
    cancelFrame: () => undefined,
  });
  return { list, playback };
}

describe('playhead across projects', () => {
  it('never stays past the end when the scenes get shorter or another project opens', async () => {
    const { list, playback } = setup([scene('a', 5000), scene('b', 5000), scene('c', 5000)]);
    playback.seek(13_000);
    expect(playback.timeMs.value).toBe(13_000);
    // A new, one-scene project of 5 s: the playhead was at 0:13.0 of 0:05.0.
    list.value = [scene('x', 5000)];
    await nextTick();
    expect(playback.timeMs.value).toBe(5000);
    playback.reset();
    expect(playback.timeMs.value).toBe(0);
    expect(playback.playing.value).toBe(false);
  });
});

describe('playing a scene with a local clip', () => {
  it('keeps the playhead moving: the clip is a still the host drew, not a video the page can play', () => {
    const clip: Scene = {
      id: 'a',
      durationMs: 5000,
      voice: null,
      elements: [{ id: 'v', type: 'video', url: 'file:///home/me/clip.mp4' } as Scene['elements'][number]],
    };
    const still = document.createElement('img');
    const media = {
      videos: () => [],
      get: () => ({ kind: 'image', element: still, status: 'ready' }),
    } as unknown as MediaCache;
    const audio = {
      pause: () => undefined,
      play: async () => undefined,
      src: '',
      currentTime: 0,
    } as unknown as HTMLAudioElement;
    let clock = 0;
    const frames: (() => void)[] = [];
    const playback = useEditorPlayback({
      scenes: ref([clip]),
      showScene: () => undefined,
      media,
      audio,
      now: () => clock,
      requestFrame: (cb) => frames.push(cb),
      cancelFrame: () => undefined,
    });
    playback.play();
    clock = 1200;
    frames.shift()?.();
    expect(playback.timeMs.value).toBe(1200);
    expect(playback.playing.value).toBe(true);
  });
});
