import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildFfmpegArgs,
  createProject,
  explainFailure,
  itemScenes,
  parseProject,
  parseVoicePart,
  planFromAvatarVideoBody,
  planFromProject,
  sceneCuts,
  sceneParts,
  setElementTiming,
  shownAt,
  toAvatarVideoBody,
  validateProject,
  voicePartReference,
  voicePartsIn,
  type Project,
} from '@common/composition';
import { FFMPEG, pixelAt } from '../../fixtures/composition/make-media';

/** One 3 s scene: a white frame and a red box (a title stands in) timed from 2 s. */
function titled(): Project {
  const base = createProject({
    kind: 'avatar-video',
    output: { width: 320, height: 180 },
    id: 'timing',
    name: 'Timing',
  });
  const scene = {
    ...base.scenes[0],
    durationMs: 3000,
    voice: { kind: 'url' as const, url: 'https://example.com/voice.mp3' },
    elements: [
      {
        id: 'el-1',
        type: 'image' as const,
        url: '#ff0000',
        x: 80,
        y: 45,
        width: 160,
        height: 90,
        layer: 1,
        name: 'Title',
      },
    ],
  };
  return setElementTiming({ ...base, scenes: [scene] }, 'scene-1', 'el-1', { startMs: 2000 });
}

const dir = mkdtempSync(join(tmpdir(), 'element-timing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an element timed inside its scene', () => {
  it('is kept in the document, read back from a file, and cleared back to the whole scene', () => {
    const p = titled();
    expect(p.scenes[0].elements[0]).toMatchObject({ startMs: 2000 });
    expect(parseProject(JSON.parse(JSON.stringify(p)))).toEqual({ ok: true, project: p });
    const scene = p.scenes[0];
    expect([1500, 1999, 2000, 2500].map((ms) => shownAt(scene.elements[0], scene, ms))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    const cleared = setElementTiming(p, 'scene-1', 'el-1', { startMs: null });
    expect('startMs' in cleared.scenes[0].elements[0]).toBe(false);
    expect(() => setElementTiming(p, 'scene-1', 'el-1', { endMs: 1000 })).toThrow(/leave before it appears/);
    expect(() => setElementTiming(p, 'scene-1', 'el-1', { startMs: 3000 })).toThrow(/after its scene ends/);
  });

  it('is absent at 1.5 s and present at 2.5 s in the local render', () => {
    const out = join(dir, 'timed.mp4');
    const command = buildFfmpegArgs(
      planFromProject(titled(), () => null),
      { outputPath: out, quality: 'preview', width: 320 },
    );
    expect(command.filterGraph).toContain("enable='between(t,2.000,2.999)'");
    const run = spawnSync(FFMPEG, command.args, { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const red = (rgb: [number, number, number]) => rgb[0] > 200 && rgb[1] < 60 && rgb[2] < 60;
    expect(red(pixelAt(out, 1.5, 160, 90))).toBe(false);
    expect(red(pixelAt(out, 2.5, 160, 90))).toBe(true);
  });

  it('is sent as consecutive items cut at 2 s, each with its piece of the voice, and the sandbox shows it then', () => {
    const p = titled();
    const body = toAvatarVideoBody(p);
    expect(body.duration).toBe(3000);
    expect(body.data.map((d) => [d.duration, d.voice, d.elements.map((e) => e.id)])).toEqual([
      [2000, { voice_url: voicePartReference('scene-1', 0, 2000) }, []],
      [1000, { voice_url: voicePartReference('scene-1', 2000, 3000) }, ['el-1']],
    ]);
    // The element itself still has only the interface's fields: the time is in the items.
    expect(Object.keys(body.data[1].elements[0]).sort()).toEqual([
      'id',
      'layer_number',
      'offset_x',
      'offset_y',
      'scale_x',
      'scale_y',
      'type',
      'url',
    ]);
    expect(voicePartsIn(body)).toEqual([
      voicePartReference('scene-1', 0, 2000),
      voicePartReference('scene-1', 2000, 3000),
    ]);
    expect(parseVoicePart(voicePartReference('scene-1', 2000, 3000))).toEqual({
      sceneId: 'scene-1',
      fromMs: 2000,
      toMs: 3000,
    });
    expect(validateProject(p, { purpose: 'submit' }).filter((x) => x.code.startsWith('timing-'))).toEqual([]);
    // The body read back as the sandbox reads it, rendered by its compositor: no red at 1.5 s, red at 2.5 s.
    const out = join(dir, 'sent.mp4');
    const plan = planFromAvatarVideoBody(body, () => null);
    expect(plan.scenes.map((s) => s.durationMs)).toEqual([2000, 1000]);
    const run = spawnSync(FFMPEG, buildFfmpegArgs(plan, { outputPath: out, quality: 'preview', width: 320 }).args, {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const red = (rgb: [number, number, number]) => rgb[0] > 200 && rgb[1] < 60 && rgb[2] < 60;
    expect(red(pixelAt(out, 1.5, 160, 90))).toBe(false);
    expect(red(pixelAt(out, 2.5, 160, 90))).toBe(true);
  });

  it('cuts a scene at every appearance and exit, and warns of a clip that runs across a cut', () => {
    const p = titled();
    const clip = {
      id: 'el-2',
      type: 'video' as const,
      url: 'https://example.com/clip.mp4',
      x: 0,
      y: 0,
      width: 320,
      height: 180,
      layer: 0,
      mediaSize: { width: 320, height: 180 },
    };
    const withClip = setElementTiming(
      { ...p, scenes: [{ ...p.scenes[0], elements: [...p.scenes[0].elements, clip] }] },
      'scene-1',
      'el-1',
      { startMs: 1000, endMs: 2500 },
    );
    expect(sceneCuts(withClip.scenes[0])).toEqual([1000, 2500]);
    expect(sceneParts(withClip.scenes[0]).map((x) => [x.fromMs, x.toMs, x.elements.map((e) => e.id)])).toEqual([
      [0, 1000, ['el-2']],
      [1000, 2500, ['el-1', 'el-2']],
      [2500, 3000, ['el-2']],
    ]);
    const said = validateProject(withClip, { purpose: 'submit' }).filter((x) => x.code === 'timing-cut');
    expect(said.map((x) => x.elementId)).toEqual(['el-2']);
    expect(said[0].message).toMatch(/cut at 1\.0 s, 2\.5 s .* starts again from its beginning/);
  });

  it("names the cut scene a failed item is part of, not the scene at the item's index", () => {
    const p = titled();
    const two = { ...p, scenes: [...p.scenes, { ...p.scenes[0], id: 'scene-2', name: 'Outro', elements: [] }] };
    const request = toAvatarVideoBody(two);
    expect(itemScenes(two.scenes)).toEqual([0, 0, 1]);
    const [reason] = explainFailure(
      { answer: { video_status: 4, error_reasons: ['data[2].voice.voice_url could not be downloaded'] }, request },
      two,
    );
    expect([reason.sceneIndex, reason.sceneId]).toEqual([1, 'scene-2']);
  });

  it('cannot be said in a talking-avatar body, and Problems says so', () => {
    const p = { ...titled(), kind: 'talking-avatar' as const };
    const said = validateProject(p, { purpose: 'submit' }).filter((x) => x.code === 'timing-not-sent');
    expect(said).toHaveLength(1);
    expect(said[0].message).toMatch(/from 2\.0 s to 3\.0 s in the preview, but a talking avatar has no timing/);
  });
});
