import { describe, expect, it } from 'vitest';
import {
  DocumentHistory,
  addElement,
  addScene,
  bringForward,
  bringToFront,
  createProject,
  deleteElement,
  duplicateElement,
  duplicateScene,
  moveElement,
  moveScene,
  nextId,
  parseProject,
  removeScene,
  reorderLayers,
  scaleElement,
  sendBackward,
  sendToBack,
  setBackground,
  setElementLocked,
  setOutput,
  setSceneDuration,
  setSceneVoice,
  stackingOrder,
  type Project,
} from '@common/composition';

function withThree(): Project {
  let p = createProject({ id: 'p1', kind: 'avatar-video', output: '16:9-1080p' });
  for (const [id, type] of [
    ['a', 'avatar'],
    ['b', 'image'],
    ['c', 'video'],
  ] as const) {
    p = addElement(p, 'scene-1', { id, type, url: `https://x/${id}`, x: 10, y: 20, width: 960, height: 540 });
  }
  return p;
}

const order = (p: Project, sceneIndex = 0) => stackingOrder(p.scenes[sceneIndex].elements).map((e) => e.id);

describe('project document operations', () => {
  it('creates a project from a preset that parses back', () => {
    const p = createProject({ id: 'p1', kind: 'talking-avatar', output: '9:16', name: 'Promo' });
    expect(p.output).toEqual({ width: 1080, height: 1920 });
    expect(p.scenes).toHaveLength(1);
    const round = parseProject(JSON.stringify(p));
    expect(round).toEqual({ ok: true, project: p });
  });

  it('refuses sizes over 3840 and bad colours', () => {
    expect(() => createProject({ id: 'p', kind: 'avatar-video', output: { width: 4000, height: 1000 } })).toThrow(
      /3840/,
    );
    const p = createProject({ id: 'p', kind: 'avatar-video', output: '1:1' });
    expect(() => setBackground(p, 'white')).toThrow(/#1a2b3c/);
    expect(setBackground(p, '#00FF00').background).toBe('#00ff00');
  });

  it('adds elements on top and leaves the input untouched', () => {
    const base = createProject({ id: 'p1', kind: 'avatar-video', output: '16:9-720p' });
    const next = addElement(base, 'scene-1', {
      type: 'image',
      url: 'https://x/i.png',
      x: 0,
      y: 0,
      width: 3840,
      height: -1080,
    });
    expect(base.scenes[0].elements).toHaveLength(0);
    expect(next.scenes[0].elements[0]).toMatchObject({ id: 'el-1', layer: 1, width: 1280, height: 0 });
    expect(nextId(next, 'el')).toBe('el-2');
  });

  it('moves and scales, but not a locked element', () => {
    const p = withThree();
    const moved = moveElement(p, 'scene-1', 'a', 100.456, 50);
    expect(moved.scenes[0].elements[0]).toMatchObject({ x: 100.46, y: 50 });
    const scaled = scaleElement(moved, 'scene-1', 'a', 480, 324, { x: 5, y: 6 });
    expect(scaled.scenes[0].elements[0]).toMatchObject({ width: 480, height: 324, x: 5, y: 6 });
    const locked = setElementLocked(p, 'scene-1', 'a', true);
    expect(moveElement(locked, 'scene-1', 'a', 1, 1)).toBe(locked);
    expect(scaleElement(locked, 'scene-1', 'a', 1, 1)).toBe(locked);
  });

  it('reorders layers: forward, backward, front, back, explicit', () => {
    const p = withThree();
    expect(order(p)).toEqual(['a', 'b', 'c']);
    expect(order(bringForward(p, 'scene-1', 'a'))).toEqual(['b', 'a', 'c']);
    expect(order(sendBackward(p, 'scene-1', 'c'))).toEqual(['a', 'c', 'b']);
    expect(order(bringToFront(p, 'scene-1', 'a'))).toEqual(['b', 'c', 'a']);
    expect(order(sendToBack(p, 'scene-1', 'c'))).toEqual(['c', 'a', 'b']);
    expect(bringToFront(p, 'scene-1', 'c')).toBe(p);
    const explicit = reorderLayers(p, 'scene-1', ['c', 'a', 'b']);
    expect(explicit.scenes[0].elements.map((e) => [e.id, e.layer])).toEqual([
      ['a', 2],
      ['b', 3],
      ['c', 1],
    ]);
    expect(() => reorderLayers(p, 'scene-1', ['a', 'b'])).toThrow(/exactly once/);
  });

  it('duplicates and deletes elements', () => {
    const p = withThree();
    const dup = duplicateElement(p, 'scene-1', 'a');
    const copy = dup.scenes[0].elements[3];
    expect(copy).toMatchObject({ id: 'el-1', x: 34, y: 44, type: 'avatar' });
    expect(order(dup).at(-1)).toBe('el-1');
    const del = deleteElement(dup, 'scene-1', 'b');
    expect(del.scenes[0].elements.map((e) => e.id)).toEqual(['a', 'c', 'el-1']);
    expect(() => deleteElement(del, 'scene-1', 'b')).toThrow(/No element "b"/);
  });

  it('manages scenes: add, duplicate with fresh ids, move, remove, durations, voices', () => {
    let p = withThree();
    p = addScene(p, { durationMs: 2000 });
    expect(p.scenes.map((s) => s.id)).toEqual(['scene-1', 'scene-2']);
    p = duplicateScene(p, 'scene-1');
    expect(p.scenes.map((s) => s.id)).toEqual(['scene-1', 'scene-3', 'scene-2']);
    const ids = p.scenes.flatMap((s) => [s.id, ...s.elements.map((e) => e.id)]);
    expect(new Set(ids).size).toBe(ids.length);
    p = moveScene(p, 'scene-2', 0);
    expect(p.scenes.map((s) => s.id)).toEqual(['scene-2', 'scene-1', 'scene-3']);
    p = setSceneDuration(p, 'scene-2', 42.6);
    expect(p.scenes[0].durationMs).toBe(100);
    p = setSceneVoice(p, 'scene-2', { kind: 'tts', text: 'Hi', voiceId: 'v1', rate: '50%' });
    expect(p.scenes[0].voice).toMatchObject({ kind: 'tts', voiceId: 'v1' });
    expect(() => setSceneVoice(p, 'scene-2', { kind: 'tts', text: 'Hi', voiceId: 'v1', rate: 'fast' })).toThrow();
    p = removeScene(p, 'scene-2');
    expect(p.scenes).toHaveLength(2);
    const single = createProject({ id: 'p', kind: 'avatar-video', output: '1:1' });
    expect(removeScene(single, 'scene-1')).toBe(single);
    expect(parseProject(p).ok).toBe(true);
  });

  it('rescales boxes when the output size changes', () => {
    const p = moveElement(withThree(), 'scene-1', 'a', 960, 540);
    const q = setOutput(p, '16:9-720p');
    expect(q.scenes[0].elements[0]).toMatchObject({ x: 640, y: 360, width: 640, height: 360 });
  });
});

describe('parseProject', () => {
  it('explains what is wrong', () => {
    expect(parseProject('{oops')).toMatchObject({ ok: false, error: expect.stringMatching(/Not valid JSON/) });
    expect(parseProject([])).toMatchObject({ ok: false, error: expect.stringMatching(/JSON object/) });
    expect(parseProject({})).toMatchObject({ ok: false, error: expect.stringMatching(/schemaVersion/) });
    expect(parseProject({ schemaVersion: 99 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/newer version/),
    });
    const p = withThree();
    const broken = JSON.parse(JSON.stringify(p));
    broken.scenes[0].elements[1].id = 'a';
    broken.output.width = 5000;
    const result = parseProject(broken);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatch(/scenes\[0\]\.elements\[1\]\.id: duplicate id "a"/);
      expect(result.error).toMatch(/output\.width/);
    }
  });
});

describe('DocumentHistory', () => {
  it('undoes and redoes one entry per commit, capped', () => {
    const h = new DocumentHistory<number>(0, 3);
    for (const n of [1, 2, 3, 4]) h.commit(n);
    expect(h.depth).toBe(3);
    expect(h.undo()).toBe(3);
    expect(h.undo()).toBe(2);
    expect(h.undo()).toBe(1);
    expect(h.canUndo).toBe(false);
    expect(h.undo()).toBe(1);
    expect(h.redo()).toBe(2);
    h.commit(9);
    expect(h.canRedo).toBe(false);
    expect(h.present).toBe(9);
  });

  it('ignores a commit of the same document', () => {
    const p = withThree();
    const h = new DocumentHistory(p);
    h.commit(moveElement(setElementLocked(p, 'scene-1', 'a', true), 'scene-1', 'a', 0, 0));
    const before = h.depth;
    h.commit(h.present);
    expect(h.depth).toBe(before);
  });
});
