import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { createProject } from '@common/composition';
import { useProjectStore } from '@/stores/project';

function fresh() {
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p1', name: 'Test' }), 'p1');
  return store;
}

const image = { type: 'image' as const, url: 'https://example.com/a.png', x: 100, y: 50, width: 480, height: 270 };

describe('project store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('adds an element on top, selects it, and one undo removes it', () => {
    const store = fresh();
    const id = store.addToScene(image);
    expect(id).toBe('el-1');
    expect(store.selectedIds).toEqual(['el-1']);
    expect(store.currentScene.elements).toHaveLength(1);
    expect(store.dirty).toBe(true);
    store.undo();
    expect(store.currentScene.elements).toHaveLength(0);
    expect(store.selectedIds).toEqual([]);
    store.redo();
    expect(store.currentScene.elements[0].id).toBe('el-1');
  });

  it('commits a finished drag of several elements as one history entry', () => {
    const store = fresh();
    store.addToScene(image);
    store.addToScene({ ...image, x: 400 });
    store.moveElements([
      { id: 'el-1', x: 110, y: 60 },
      { id: 'el-2', x: 410, y: 60 },
    ]);
    expect(store.currentScene.elements.map((e) => [e.x, e.y])).toEqual([
      [110, 60],
      [410, 60],
    ]);
    store.undo();
    expect(store.currentScene.elements.map((e) => e.x)).toEqual([100, 400]);
  });

  it('keeps a resized box in output pixels, at most the frame', () => {
    const store = fresh();
    store.addToScene(image);
    store.resizeElement({ id: 'el-1', x: 0, y: 10, width: 960, height: 270 });
    expect(store.currentScene.elements[0]).toMatchObject({ x: 0, y: 10, width: 960, height: 270 });
    store.resizeElement({ id: 'el-1', x: 0, y: 0, width: 5000, height: 100 });
    expect(store.currentScene.elements[0].width).toBe(1920);
  });

  it('coalesces quick nudges into one undo step but not slow ones', () => {
    const store = fresh();
    store.addToScene(image);
    store.nudge(1, 0, 1000);
    store.nudge(1, 0, 1100);
    store.nudge(0, 10, 1200);
    expect(store.currentScene.elements[0]).toMatchObject({ x: 102, y: 60 });
    store.undo();
    expect(store.currentScene.elements[0]).toMatchObject({ x: 100, y: 50 });
    store.redo();
    store.nudge(1, 0, 5000);
    store.undo();
    expect(store.currentScene.elements[0]).toMatchObject({ x: 102, y: 60 });
  });

  it('does not move a locked element, by drag or by nudge', () => {
    const store = fresh();
    store.addToScene(image);
    store.toggleLock();
    store.moveElements([{ id: 'el-1', x: 999, y: 999 }]);
    store.nudge(10, 0);
    expect(store.currentScene.elements[0]).toMatchObject({ x: 100, y: 50, locked: true });
  });

  it('keeps a locked element (a brand logo) through select-all and Delete, or Cut; the rest goes in one step', () => {
    const store = fresh();
    store.addToScene({ ...image, name: 'Logo', role: 'logo' });
    store.toggleLock();
    store.addToScene({ ...image, x: 600 });
    store.addToScene({ ...image, x: 900 });
    store.select(['el-1', 'el-2', 'el-3']);
    store.deleteSelected();
    expect(store.currentScene.elements.map((e) => e.id)).toEqual(['el-1']);
    expect(store.selectedIds).toEqual(['el-1']);
    store.undo();
    expect(store.currentScene.elements).toHaveLength(3);
    store.select(['el-1', 'el-3']);
    store.cutSelected();
    expect(store.currentScene.elements.map((e) => e.id)).toEqual(['el-1', 'el-2']);
    // Selected alone, it stays too: unlock it first to delete it.
    const before = store.doc;
    store.select(['el-1']);
    store.deleteSelected();
    expect(store.doc).toBe(before);
    store.toggleLock();
    store.deleteSelected();
    expect(store.currentScene.elements.map((e) => e.id)).toEqual(['el-2']);
  });

  it('copies and pastes with fresh ids, shifted, selecting the copies', () => {
    const store = fresh();
    store.addToScene(image);
    store.copySelected();
    store.paste();
    expect(store.currentScene.elements.map((e) => e.id)).toEqual(['el-1', 'el-2']);
    expect(store.currentScene.elements[1]).toMatchObject({ x: 124, y: 74 });
    expect(store.selectedIds).toEqual(['el-2']);
    store.duplicateSelected();
    expect(store.selectedIds).toEqual(['el-3']);
  });

  it('sets a layer position and changes stacking with forward/backward', () => {
    const store = fresh();
    store.addToScene({ ...image, name: 'a' });
    store.addToScene({ ...image, name: 'b' });
    store.addToScene({ ...image, name: 'c' });
    store.setLayerPosition('el-3', 1);
    const layerOf = (id: string) => store.currentScene.elements.find((e) => e.id === id)?.layer;
    expect([layerOf('el-3'), layerOf('el-1'), layerOf('el-2')]).toEqual([1, 2, 3]);
    store.select(['el-3']);
    store.bringForward();
    expect(layerOf('el-3')).toBe(2);
    store.sendBackward();
    expect(layerOf('el-3')).toBe(1);
  });

  it('adds, duplicates, reorders and times scenes; keeps selection inside the current scene', () => {
    const store = fresh();
    store.addToScene(image);
    store.addScene();
    expect(store.doc.scenes.map((s) => s.id)).toEqual(['scene-1', 'scene-2']);
    expect(store.currentScene.id).toBe('scene-2');
    store.duplicateScene('scene-1');
    expect(store.doc.scenes.map((s) => s.id)).toEqual(['scene-1', 'scene-3', 'scene-2']);
    store.moveScene('scene-1', 2);
    expect(store.doc.scenes.map((s) => s.id)).toEqual(['scene-3', 'scene-2', 'scene-1']);
    store.setSceneDuration('scene-2', 2345);
    expect(store.doc.scenes[1].durationMs).toBe(2345);
    store.removeScene('scene-3');
    expect(store.doc.scenes).toHaveLength(2);
  });

  it('keeps an operation error for the UI instead of throwing', () => {
    const store = fresh();
    store.moveElements([{ id: 'nope', x: 1, y: 1 }]);
    expect(store.lastError).toMatch(/No element "nope"/);
    expect(store.canUndo).toBe(false);
  });

  it('knows when the document differs from the last save', () => {
    const store = fresh();
    expect(store.dirty).toBe(false);
    store.addToScene(image);
    expect(store.dirty).toBe(true);
    store.markSaved('p1');
    expect(store.dirty).toBe(false);
  });
});
