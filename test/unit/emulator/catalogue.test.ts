import { describe, expect, it } from 'vitest';
import { call, dataOf, probe, SLOW, useSandbox } from './harness';

describe('sandbox catalogue', { timeout: SLOW }, () => {
  const sandbox = useSandbox();

  it('lists varied official voices whose previews are real speech', async () => {
    const voices = dataOf(await call(sandbox.em, 'voiceList', { from: 3 }));
    expect(voices.length).toBeGreaterThanOrEqual(5);
    expect(new Set(voices.map((v) => v.gender))).toEqual(new Set(['Female', 'Male']));
    expect(new Set(voices.map((v) => v.accent)).size).toBeGreaterThanOrEqual(4);
    expect(voices.every((v) => v.from === 3)).toBe(true);
    const p = await probe(voices[0].preview);
    expect(p.hasAudio).toBe(true);
    expect(p.duration).toBeGreaterThan(1.5);
    expect(dataOf(await call(sandbox.em, 'voiceList', { from: 4 }))).toEqual([]);
    expect(await call(sandbox.em, 'voiceList', { from: 7 })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('from'),
    });
  });

  it('lists, filters and pages avatars, with playable clips and thumbnails', async () => {
    const all = dataOf(await call(sandbox.em, 'avatarList', {}));
    expect(all.length).toBe(3);
    expect(dataOf(await call(sandbox.em, 'avatarList', { type: 2 })).map((a) => a.avatar_id)).toEqual(['SandboxCleo']);
    expect(dataOf(await call(sandbox.em, 'avatarList', { from: 3 }))).toEqual([]);
    expect(dataOf(await call(sandbox.em, 'avatarList', { page: 2, size: 2 })).length).toBe(1);
    expect(await call(sandbox.em, 'avatarList', { page: 0 })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('page'),
    });
    const clip = await probe(all[0].url);
    expect(clip).toMatchObject({ width: 640, height: 360, hasVideo: true });
    expect(clip.duration).toBeCloseTo(4, 0);
    expect(await probe(String(all[0].thumbnailUrl))).toMatchObject({ width: 320, height: 180 });
    // Pages on another origin (the studio's waveforms) may read the bytes, as with a CDN link.
    const media = await fetch(String(all[0].thumbnailUrl));
    expect(media.headers.get('access-control-allow-origin')).toBe('*');
    const detail = dataOf(await call(sandbox.em, 'avatarDetail', { id: String(all[0]._id) }));
    expect(detail[0]).toMatchObject({ _id: all[0]._id, status: 3, from: 2 });
    expect(await call(sandbox.em, 'avatarDetail', { id: 'nope' })).toMatchObject({ code: 1008 });
    expect(await call(sandbox.em, 'avatarDetail', {})).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('id'),
    });
  });

  it('lists AI models by types[] with resolutions and prices', async () => {
    const swap = dataOf(await call(sandbox.em, 'aiModelList', { types: [2101] }));
    expect(swap.map((m) => m.type)).toEqual([2101]);
    expect(swap[0].resolutionList.map((r) => [r.value, r.unit_credit])).toEqual([
      ['480p', 5],
      ['720p', 10],
      ['1080p', 15],
    ]);
    const both = dataOf(await call(sandbox.em, 'aiModelList', { types: [1501, 1502] }));
    expect(new Set(both.map((m) => m.type))).toEqual(new Set([1501, 1502]));
    const sorts = both.map((m) => m.sort ?? 0);
    expect([...sorts].sort((a, b) => b - a)).toEqual(sorts);
    // Plain `types=` (no brackets) is read too; a missing or unknown type is a parameter error.
    const plain = await fetch(`${sandbox.em.url}/api/open/v4/aigModel/list?types=1502`, {
      headers: { 'x-api-key': sandbox.em.apiKey },
    });
    expect(((await plain.json()) as { data: unknown[] }).data.length).toBe(1);
    expect(await call(sandbox.em, 'aiModelList', {})).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('types'),
    });
    expect(await call(sandbox.em, 'aiModelList', { types: [42] })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('types'),
    });
  });

  it('refuses the deprecated background change with a clear message', async () => {
    const body = {
      origin_img: `${sandbox.em.url}/sandbox/sandbox-face.png`,
      modify_origin_img_size: '100x100',
      overlay_origin_x: 0,
      overlay_origin_y: 0,
      canvas_size: '200x200',
      webhookUrl: '',
    };
    expect(await call(sandbox.em, 'backgroundChangeCreate', body)).toMatchObject({
      code: 1206,
      msg: expect.stringMatching(/no longer available/),
    });
    expect(await call(sandbox.em, 'backgroundChangeInfo', { image_model_id: 'x' })).toMatchObject({
      code: 1206,
      msg: expect.stringMatching(/no longer available/),
    });
    expect(await call(sandbox.em, 'backgroundChangeCreate', {}, { anonymous: true })).toMatchObject({ code: 1102 });
  });
});
