import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildFfmpegArgs,
  createProject,
  parseProject,
  planFromProject,
  setElementTiming,
  shownAt,
  toAvatarVideoBody,
  validateProject,
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

  it('cannot be said in the request body, and Problems says so', () => {
    const p = titled();
    const element = toAvatarVideoBody(p).data[0].elements[0];
    expect(Object.keys(element).sort()).toEqual([
      'id',
      'layer_number',
      'offset_x',
      'offset_y',
      'scale_x',
      'scale_y',
      'type',
      'url',
    ]);
    const said = validateProject(p, { purpose: 'submit' }).filter((x) => x.code === 'timing-not-sent');
    expect(said).toHaveLength(1);
    expect(said[0].message).toMatch(/from 2\.0 s to 3\.0 s in the preview, but the service has no timing for elements/);
  });
});
