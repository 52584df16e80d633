import { describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type Konva from 'konva';
import EditorCanvas from '@/canvas/EditorCanvas.vue';
import { MediaCache } from '@/composables/editor-media';
import type { CanvasItem } from '@/canvas/types';

const item = (id: string, x: number, y: number, locked = false): CanvasItem => ({
  id,
  kind: 'image',
  src: null,
  label: id,
  locked,
  x,
  y,
  width: 400,
  height: 300,
  maxWidth: 1920,
  maxHeight: 1080,
});

async function mountCanvas(items: CanvasItem[], selectedIds: string[] = []) {
  const wrapper = mount(EditorCanvas, {
    props: { items, frame: { width: 1920, height: 1080, background: '#000000' }, selectedIds, media: new MediaCache() },
    attachTo: document.body,
  });
  await flushPromises();
  const stage = (wrapper.vm as unknown as { stage(): Konva.Stage }).stage();
  return { wrapper, stage, node: (id: string) => stage.findOne(`#${id}`) as Konva.Node };
}

describe('editor canvas', () => {
  it('draws one node per element, in order, and nothing is read from them into the document', async () => {
    const { stage } = await mountCanvas([item('a', 10, 10), item('b', 500, 200)]);
    expect(stage.find('.element').map((n) => n.id())).toEqual(['a', 'b']);
    expect(stage.findOne('#b')?.x()).toBe(500);
  });

  it('selects on pointer down, adds with Shift, and clears on empty canvas', async () => {
    const { wrapper, stage, node } = await mountCanvas([item('a', 10, 10), item('b', 500, 200)], ['a']);
    node('b').fire('mousedown', { evt: new MouseEvent('mousedown') }, true);
    node('b').fire('mousedown', { evt: new MouseEvent('mousedown', { shiftKey: true }) }, true);
    stage.fire('mousedown', { evt: new MouseEvent('mousedown'), target: stage }, false);
    expect(wrapper.emitted('select')).toEqual([[['b']], [['a', 'b']], [[]]]);
  });

  it('reports a finished drag once, snapped to the frame edge and rounded, and puts the node back', async () => {
    const { wrapper, node } = await mountCanvas([item('a', 100, 100), item('b', 900, 600)], ['a']);
    const a = node('a');
    a.fire('dragstart', { evt: new MouseEvent('mousemove') }, true);
    a.position({ x: 3.4, y: 150.6 });
    a.fire('dragmove', { evt: new MouseEvent('mousemove') }, true);
    expect(wrapper.emitted('move')).toBeUndefined();
    a.fire('dragend', { evt: new MouseEvent('mouseup') }, true);
    // x 3.4 is within the snap distance of the frame's left edge; y is far from every line.
    expect(wrapper.emitted('move')).toEqual([[[{ id: 'a', x: 0, y: 151 }]]]);
    expect(a.position()).toEqual({ x: 100, y: 100 });
  });

  it('refuses a resize beyond the frame (the 0..1 scale limit)', async () => {
    const { wrapper } = await mountCanvas([item('a', 0, 0)], ['a']);
    const vm = wrapper.vm as unknown as { viewport: { scale: number } };
    const tr = (wrapper.vm as unknown as { stage(): Konva.Stage }).stage().findOne('Transformer') as Konva.Transformer;
    const limit = tr.boundBoxFunc();
    const old = { x: 0, y: 0, width: 100, height: 100, rotation: 0 };
    const s = vm.viewport.scale;
    expect(limit(old, { ...old, width: 1900 * s, height: 1000 * s })).toEqual({
      ...old,
      width: 1900 * s,
      height: 1000 * s,
    });
    expect(limit(old, { ...old, width: 2000 * s, height: 1000 * s })).toBe(old);
    expect(limit(old, { ...old, width: 2, height: 2 })).toBe(old);
  });
});
