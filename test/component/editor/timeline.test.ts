import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia, getActivePinia, setActivePinia } from 'pinia';
import { createProject, presetStyle, type Scene } from '@common/composition';
import TimelinePanel from '@/timeline/TimelinePanel.vue';
import { useProjectStore } from '@/stores/project';
import { dropIndex, resizedDuration, sceneAt, sceneSpans } from '@/timeline/timeline-math';

// WaveSurfer draws into a real canvas and the host measures the sound; the strip's own behaviour is
// not under test (and there is no host here to ask).
vi.mock('wavesurfer.js', () => ({
  default: { create: () => ({ on: () => undefined, destroy: () => undefined }) },
}));
vi.mock('@/composables/host-peaks', () => ({ hostPeaks: async () => null }));

const scene = (
  id: string,
  durationMs: number,
  elements: Scene['elements'] = [],
  voice: Scene['voice'] = null,
): Scene => ({ id, durationMs, voice, elements });
const el = (id: string, layer: number, type: 'image' | 'avatar' = 'image') => ({
  id,
  type,
  url: `https://x/${id}.png`,
  x: 0,
  y: 0,
  width: 960,
  height: 540,
  layer,
  name: id,
});

const scenes = [
  scene('scene-1', 5000, [el('a', 1), el('b', 2, 'avatar')], { kind: 'url', url: 'https://x/v.mp3' }),
  scene('scene-2', 2500, [el('c', 1)]),
];

beforeEach(() => setActivePinia(createPinia()));

/** The panel inside the providers its caption controls ask for (messages, dialogs). */
function mountTimeline(shown: Scene[] = scenes) {
  const Root = defineComponent({
    render: () =>
      h(NMessageProvider, null, {
        default: () =>
          h(NDialogProvider, null, {
            default: () =>
              h(TimelinePanel, {
                scenes: shown,
                currentSceneId: 'scene-1',
                selectedIds: ['b'],
                playheadMs: 1000,
                playing: false,
              }),
          }),
      }),
  });
  // The music lane asks for the store through the app, as it is mounted in the studio.
  return mount(Root, { attachTo: document.body, global: { plugins: [getActivePinia()!] } }).findComponent(
    TimelinePanel,
  );
}

function pointer(type: string, clientX: number): PointerEvent {
  return new PointerEvent(type, { clientX, bubbles: true, button: 0, pointerId: 1 });
}

describe('timeline arithmetic', () => {
  it('places scenes end to end and finds the scene under the playhead', () => {
    const spans = sceneSpans(scenes);
    expect(spans.map((s) => s.startMs)).toEqual([0, 5000]);
    expect(sceneAt(spans, 6000)).toEqual({ index: 1, localMs: 1000 });
    expect(sceneAt(spans, 99999)).toEqual({ index: 1, localMs: 2500 });
  });

  it('moves a dragged scene past the midpoints it crosses', () => {
    const spans = sceneSpans([
      { id: 'a', durationMs: 1000 },
      { id: 'b', durationMs: 1000 },
      { id: 'c', durationMs: 1000 },
    ]);
    expect(dropIndex(spans, 0, 1600)).toBe(1);
    expect(dropIndex(spans, 0, 2600)).toBe(2);
    expect(dropIndex(spans, 2, 100)).toBe(0);
  });

  it('turns an edge drag into a duration in 100 ms steps, never below 100 ms', () => {
    expect(resizedDuration(5000, 48, 48)).toBe(6000);
    expect(resizedDuration(5000, -10, 48)).toBe(4800);
    expect(resizedDuration(300, -1000, 48)).toBe(100);
  });
});

describe('timeline panel', () => {
  it('draws scene blocks as wide as their durations, with a row per layer and the topmost first', () => {
    const w = mountTimeline();
    const blocks = w.findAll('[data-scene-id]');
    expect(blocks.map((b) => (b.element as HTMLElement).style.width)).toEqual(['240px', '120px']);
    const rows = w.findAll('.row.layer');
    expect(rows).toHaveLength(2);
    expect(rows[0].text()).toContain('b');
    expect(rows[1].text()).toContain('a');
    expect(w.find('.clip.selected').text()).toBe('b');
  });

  it('draws an element timed inside its scene over its own span only', () => {
    const timed = [scene('scene-1', 5000, [{ ...el('a', 1), startMs: 2000, endMs: 4000 }, el('b', 2)])];
    const w = mountTimeline(timed);
    const style = (name: string) => (w.find(`[aria-label="${name} in scene 1"]`).element as HTMLElement).style;
    // 240 px for the 5 s scene: the timed clip starts 2 s in and lasts 2 s; the other spans the scene.
    expect([style('a').left, style('a').width]).toEqual(['97px', '94px']);
    expect([style('b').left, style('b').width]).toEqual(['1px', '238px']);
  });

  it("labels a row by each scene's own layer: a scene with fewer layers leaves the upper rows empty", () => {
    const w = mountTimeline();
    const rows = w.findAll('.row.layer');
    // Scene 2 has one element, on its layer 1: it sits in "Layer 1" beside scene 1's bottom element.
    expect(rows[0].find('.label').text()).toBe('Layer 2');
    expect(rows[0].findAll('.clip').map((c) => c.attributes('aria-label'))).toEqual(['b in scene 1']);
    expect(rows[1].find('.label').text()).toBe('Layer 1');
    expect(rows[1].findAll('.clip').map((c) => c.attributes('aria-label'))).toEqual(['a in scene 1', 'c in scene 2']);
  });

  it('labels a text with no name by its first line, so the label follows its words', () => {
    const style = {
      ...presetStyle(createProject({ id: 'p', kind: 'avatar-video', output: '16:9-1080p' }), 'title'),
      content: 'Hello\nworld',
    };
    const { name: _name, ...unnamed } = el('t', 1);
    const text = { ...unnamed, type: 'text' as const, url: '', text: style };
    const w = mountTimeline([scene('scene-1', 5000, [text])]);
    expect(w.find('.clip').attributes('aria-label')).toBe('Hello in scene 1');
  });

  it('emits add, duplicate and remove for the current scene', async () => {
    const w = mountTimeline();
    await w.get('[aria-label="Add scene"]').trigger('click');
    await w.get('[aria-label="Duplicate scene"]').trigger('click');
    await w.get('[aria-label="Remove scene"]').trigger('click');
    expect(w.emitted('addScene')).toHaveLength(1);
    expect(w.emitted('duplicateScene')).toEqual([['scene-1']]);
    expect(w.emitted('removeScene')).toEqual([['scene-1']]);
  });

  it('changes a duration once, at the end of an edge drag', async () => {
    const w = mountTimeline();
    const edge = w.get('[aria-label="Duration of scene 2"]').element;
    edge.dispatchEvent(pointer('pointerdown', 500));
    edge.dispatchEvent(pointer('pointermove', 520));
    edge.dispatchEvent(pointer('pointermove', 548));
    await w.vm.$nextTick();
    expect(w.emitted('setDuration')).toBeUndefined();
    expect(w.get('[data-scene-id="scene-2"]').text()).toContain('3.5s');
    edge.dispatchEvent(pointer('pointerup', 548));
    expect(w.emitted('setDuration')).toEqual([['scene-2', 3500]]);
  });

  it('changes a duration from the keyboard in 100 ms steps, 1 s with Shift', async () => {
    const w = mountTimeline();
    const edge = w.get('[aria-label="Duration of scene 1"]');
    await edge.trigger('keydown', { key: 'ArrowRight' });
    await edge.trigger('keydown', { key: 'ArrowLeft', shiftKey: true });
    expect(w.emitted('setDuration')).toEqual([
      ['scene-1', 5100],
      ['scene-1', 4000],
    ]);
  });

  it('reorders by dragging a block, and selects on a plain click', async () => {
    const w = mountTimeline();
    const first = w.get('[data-scene-id="scene-1"]').element;
    const lane = first.parentElement as HTMLElement;
    first.dispatchEvent(pointer('pointerdown', 100));
    lane.dispatchEvent(pointer('pointerup', 100));
    expect(w.emitted('selectScene')).toEqual([['scene-1']]);
    // The scroller sits at x = 0 in happy-dom, lanes start after the 92 px label column: 400 px is
    // 6.4 s, past the middle of scene 2.
    first.dispatchEvent(pointer('pointerdown', 100));
    lane.dispatchEvent(pointer('pointermove', 400));
    await w.vm.$nextTick();
    expect(w.find('.drop-marker').exists()).toBe(true);
    lane.dispatchEvent(pointer('pointerup', 400));
    expect(w.emitted('moveScene')).toEqual([['scene-1', 1]]);
  });

  it('seeks from the ruler and toggles playback', async () => {
    const w = mountTimeline();
    w.get('.ruler .lane').element.dispatchEvent(pointer('pointerdown', 92 + 96));
    await w.get('[aria-label="Play"]').trigger('click');
    expect(w.emitted('seek')).toEqual([[2000]]);
    expect(w.emitted('togglePlay')).toHaveLength(1);
  });
});

describe('caption track', () => {
  function captioned() {
    const store = useProjectStore();
    const base = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p' });
    const withCues: Scene[] = [
      {
        ...scenes[0],
        captions: [
          { text: 'Hello there.', startMs: 0, endMs: 1000 },
          { text: 'Welcome.', startMs: 2000, endMs: 3000 },
        ],
      },
      { ...scenes[1], captions: [{ text: 'Scene two.', startMs: 500, endMs: 1500 }] },
    ];
    store.load({ ...base, scenes: withCues }, null);
    return store;
  }

  it('draws each cue under its scene, on the project clock', () => {
    const store = captioned();
    const w = mountTimeline(store.doc.scenes);
    const cues = w.findAll('.cue');
    expect(cues.map((c) => c.attributes('aria-label'))).toEqual([
      'Caption 1 in scene 1: Hello there.',
      'Caption 2 in scene 1: Welcome.',
      'Caption 1 in scene 2: Scene two.',
    ]);
    // 48 px a second: scene 2 starts at 240 px, its cue half a second later.
    expect(cues.map((c) => (c.element as HTMLElement).style.left)).toEqual(['0px', '96px', '264px']);
  });

  it('trims a cue by its edge in one undoable edit, stopping at the next cue', async () => {
    const store = captioned();
    const w = mountTimeline(store.doc.scenes);
    const edge = w.findAll('.cue')[0].get('.cue-edge.end').element;
    edge.dispatchEvent(pointer('pointerdown', 100));
    edge.dispatchEvent(pointer('pointermove', 200));
    await w.vm.$nextTick();
    expect(store.doc.scenes[0].captions?.[0].endMs).toBe(1000);
    edge.dispatchEvent(pointer('pointerup', 200));
    expect(store.doc.scenes[0].captions?.[0]).toEqual({ text: 'Hello there.', startMs: 0, endMs: 2000 });
    store.undo();
    expect(store.doc.scenes[0].captions?.[0].endMs).toBe(1000);
  });

  it('edits the selected cue from its fields and refuses a time that is not one', async () => {
    const store = captioned();
    const w = mountTimeline(store.doc.scenes);
    await w.findAll('.cue')[1].trigger('pointerdown', { button: 0, clientX: 150 });
    const start = w.get('input[aria-label="Caption start (seconds)"]');
    await start.setValue('1.5');
    await start.trigger('keydown', { key: 'Enter' });
    expect(store.doc.scenes[0].captions?.[1].startMs).toBe(1500);
    await start.setValue('soon');
    await start.trigger('keydown', { key: 'Enter' });
    expect(store.lastError).toBe('"soon" is not a time in seconds (for example 1.25).');
    expect(store.doc.scenes[0].captions?.[1].startMs).toBe(1500);
    await w.get('[aria-label="Delete caption"]').trigger('click');
    expect(store.doc.scenes[0].captions?.map((c) => c.text)).toEqual(['Hello there.']);
  });
});
