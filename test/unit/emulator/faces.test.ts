import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OFFICIAL_AVATARS, FACE_IMAGES } from '../../../electron/emulator/catalogue/definitions';
import { catalogueDirIn } from '../../../electron/emulator/catalogue/catalogue';
import { CATALOGUE_ROOT, call, probe, sample, SLOW, useSandbox } from './harness';

describe('sandbox face detection', { timeout: SLOW }, () => {
  const sandbox = useSandbox();

  it('finds the drawn face of the sample portrait exactly where it was drawn', async () => {
    const res = await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'sandbox-face.png') });
    expect(res.error_code).toBe(0);
    const frame = res.faces_obj?.['0'];
    const f = FACE_IMAGES[0].faces[0];
    expect(frame?.region).toEqual([[f.cx - f.r, f.cy - f.r, 2 * f.r, 2 * f.r]]);
    expect(frame?.landmarks[0]).toHaveLength(6);
    expect(frame?.frame_time).toBeNull();
    expect(frame?.face_urls).toBeNull();
    // landmarks_str is the first four landmarks, usable as live `opts`.
    const pts = frame?.landmarks[0]
      .slice(0, 4)
      .map(([x, y]) => `${x},${y}`)
      .join(':');
    expect(frame?.landmarks_str).toEqual([pts]);
    const live = await call(sandbox.em, 'liveCreate', {
      sourceImage: [{ path: sample(sandbox.em, 'sandbox-face.png'), opts: frame?.landmarks_str[0] }],
    });
    expect(live.code).toBe(1000);
  });

  it('accepts base64 image data with or without a data URI prefix', async () => {
    const bytes = await readFile(join(catalogueDirIn(CATALOGUE_ROOT), 'sandbox-face.png'));
    for (const img of [bytes.toString('base64'), `data:image/png;base64,${bytes.toString('base64')}`]) {
      const res = await call(sandbox.em, 'detectFaces', { img });
      expect(res.error_code).toBe(0);
      expect(res.faces_obj?.['0'].region).toHaveLength(1);
    }
  });

  it('samples num_frames frames of a sample clip and returns crops when asked', async () => {
    const res = await call(sandbox.em, 'detectFaces', {
      url: sample(sandbox.em, 'avatar-SandboxBen.mp4'),
      num_frames: 3,
      return_face_url: true,
    });
    expect(Object.keys(res.faces_obj ?? {})).toEqual(['0', '1', '2']);
    const frame = res.faces_obj?.['1'];
    const face = OFFICIAL_AVATARS[1].face;
    expect(frame?.region[0]).toEqual([face.cx - face.r, face.cy - face.r, 2 * face.r, 2 * face.r]);
    expect(frame?.frame_time).toBeGreaterThan(0);
    expect(frame?.removed).toEqual([]);
    expect(frame?.crop_region?.[0]).toHaveLength(4);
    expect(frame?.crop_landmarks?.[0]).toMatch(/^\d+,\d+(:\d+,\d+){3}$/);
    const crop = await probe(String(frame?.face_urls?.[0]));
    const [x1, y1, x2, y2] = frame?.crop_region?.[0] ?? [];
    expect([crop.width, crop.height]).toEqual([x2 - x1, y2 - y1]);
    expect(
      Object.keys(
        (await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'avatar-SandboxBen.mp4') })).faces_obj ?? {},
      ),
    ).toHaveLength(5);
  });

  it('returns only the largest face with single_face', async () => {
    const both = await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'sandbox-group.png') });
    expect(both.faces_obj?.['0'].region).toHaveLength(2);
    const one = await call(sandbox.em, 'detectFaces', {
      url: sample(sandbox.em, 'sandbox-group.png'),
      single_face: true,
    });
    expect(one.faces_obj?.['0'].region).toHaveLength(1);
  });

  it('never invents faces and explains each failure in the face-detection envelope', async () => {
    expect(await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'sandbox-backdrop.png') })).toMatchObject({
      error_code: 1,
      error_msg: 'No faces detected',
    });
    expect(await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'sandbox-motion.mp4') })).toMatchObject({
      error_code: 1,
      error_msg: 'No faces detected',
    });
    expect(await call(sandbox.em, 'detectFaces', {})).toMatchObject({
      error_code: 1,
      error_msg: expect.stringContaining('url or img'),
    });
    expect(await call(sandbox.em, 'detectFaces', { url: 'not a url' })).toMatchObject({
      error_code: 1,
      error_msg: expect.stringContaining('url'),
    });
    expect(await call(sandbox.em, 'detectFaces', { url: 'http://127.0.0.1:9/missing.png' })).toMatchObject({
      error_code: 1,
      error_msg: expect.stringContaining('Failed to download'),
    });
    expect(
      await call(sandbox.em, 'detectFaces', { img: Buffer.from('plain text, not a picture').toString('base64') }),
    ).toMatchObject({ error_code: 1, error_msg: 'Failed to detect media type' });
    expect(await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'voice-sandbox_ava.mp3') })).toMatchObject({
      error_code: 1,
      error_msg: 'Failed to detect media type',
    });
    expect(
      await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'sandbox-face.png'), num_frames: 25 }),
    ).toMatchObject({ error_code: 1, error_msg: expect.stringContaining('num_frames') });
    expect(
      await call(sandbox.em, 'detectFaces', { url: sample(sandbox.em, 'sandbox-face.png') }, { anonymous: true }),
    ).toMatchObject({ error_code: 1, code: 1102 });
  });
});

describe('sandbox analyze frames', { timeout: SLOW }, () => {
  const sandbox = useSandbox();

  it('merges the same person across frames, left to right', async () => {
    const res = await call(sandbox.em, 'analyzeFrames', {
      frame_urls: [
        sample(sandbox.em, 'sandbox-group.png'),
        sample(sandbox.em, 'avatar-SandboxAnna.jpg'),
        sample(sandbox.em, 'sandbox-group.png'),
      ],
      timestamps: [0, 1.5, 3],
      expand_ratio: 0.1,
    });
    if (!res.success) throw new Error(res.error);
    expect(res.frame_count).toBe(3);
    // Group shot: Ben (left) and Anna (right); Anna's thumbnail is the same person.
    expect(res.persons.map((p) => p.person_id)).toEqual(['person_0', 'person_1']);
    const [left, right] = res.persons;
    expect(left.appearances.map((a) => a.frame_idx)).toEqual([0, 2]);
    expect(right.appearances.map((a) => a.frame_idx)).toEqual([0, 1, 2]);
    expect([right.first_seen, right.last_seen]).toEqual([0, 3]);
    expect(left.bbox[0]).toBeLessThan(right.bbox[0]);
    expect((await probe(left.face_url)).width).toBeGreaterThan(100);
  });

  it('answers one person per face for one image, nobody for a faceless one, and documented failures', async () => {
    const one = await call(sandbox.em, 'analyzeFrames', { frame_urls: [sample(sandbox.em, 'sandbox-face.png')] });
    expect(one).toMatchObject({ success: true, frame_count: 1 });
    expect(
      await call(sandbox.em, 'analyzeFrames', { frame_urls: [sample(sandbox.em, 'sandbox-backdrop.png')] }),
    ).toMatchObject({ success: true, persons: [] });
    expect(await call(sandbox.em, 'analyzeFrames', { frame_urls: [] })).toMatchObject({
      success: false,
      error: 'frame_urls is required and must not be empty',
    });
    expect(await call(sandbox.em, 'analyzeFrames', {})).toMatchObject({
      success: false,
      error: 'frame_urls is required and must not be empty',
    });
    // The docs' address for the same operation answers the same.
    const docs = await fetch(`${sandbox.em.url}/interface/detect-api/faceswap/analyze_frames`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': sandbox.em.apiKey },
      body: JSON.stringify({ frame_urls: [sample(sandbox.em, 'sandbox-face.png')] }),
    });
    const withoutCrops = (answer: unknown) => JSON.stringify(answer).replace(/"face_url":"[^"]*"/g, '');
    expect(withoutCrops(await docs.json())).toBe(withoutCrops(one));
    expect(await call(sandbox.em, 'analyzeFrames', { frame_urls: ['http://127.0.0.1:9/x.png'] })).toMatchObject({
      success: false,
      error: 'Failed to download image from URL',
    });
    expect(
      await call(sandbox.em, 'analyzeFrames', {
        frame_urls: [sample(sandbox.em, 'sandbox-face.png')],
        expand_ratio: 2,
      }),
    ).toMatchObject({ success: false, error: expect.stringContaining('expand_ratio') });
  });
});
