// The canvas and an element's own time: left out while playing outside its span, faint while paused there.
import { describe, expect, it } from 'vitest';
import { computed, ref } from 'vue';
import type { Scene } from '@common/composition';
import { useTimedScene } from '@/canvas/timed-scene';
import { itemShape } from '@/canvas/stage-shapes';

const box = { url: 'https://x/a.png', x: 0, y: 0, width: 100, height: 100, layer: 1 };
const scenes: Scene[] = [
  { id: 'scene-1', durationMs: 1000, voice: null, elements: [] },
  {
    id: 'scene-2',
    durationMs: 3000,
    voice: null,
    elements: [
      { ...box, id: 'photo', type: 'image' },
      { ...box, id: 'title', type: 'image', startMs: 2000 },
    ],
  },
];

describe('timed elements on the canvas', () => {
  it('leaves a title timed at 2 s out while playing at 1.5 s, draws it faint when paused there, and whole at 2.5 s', () => {
    const playing = ref(false);
    const timeMs = ref(1000 + 1500);
    const timed = useTimedScene(
      computed(() => scenes[1]),
      computed(() => scenes),
      () => ({ playing, timeMs }),
    );
    expect([...timed.offstage.value]).toEqual(['title']);
    expect(timed.played.value.elements.map((e) => e.id)).toEqual(['photo', 'title']);
    playing.value = true;
    expect(timed.played.value.elements.map((e) => e.id)).toEqual(['photo']);
    timeMs.value = 1000 + 2500;
    expect([...timed.offstage.value]).toEqual([]);
    expect(timed.played.value.elements.map((e) => e.id)).toEqual(['photo', 'title']);
  });

  it('draws an offstage item at a third of its opacity', () => {
    const item = {
      id: 'a',
      kind: 'image' as const,
      src: null,
      label: 'a',
      locked: false,
      maxWidth: 1,
      maxHeight: 1,
      x: 0,
      y: 0,
      width: 1,
      height: 1,
    };
    expect(itemShape({ ...item, offstage: true }, {}).opacity).toBe(0.3);
    expect(itemShape(item, {}).opacity).toBeUndefined();
  });
});
