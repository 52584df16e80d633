import { describe, expect, it } from 'vitest';
import { call, dataOf, meanVolume, probe, sample, until, SLOW, useSandbox } from './harness';

const avatar = (extra: Record<string, unknown> = {}) => ({
  type: 'avatar',
  avatar_id: 'SandboxBen',
  scale_x: 0.5,
  scale_y: 1,
  offset_x: 80,
  offset_y: 0,
  layer_number: 2,
  ...extra,
});

describe('sandbox avatar video and talking avatar', { timeout: SLOW }, () => {
  const sandbox = useSandbox();
  const info = (id: string) =>
    until(
      () => call(sandbox.em, 'videoInfo', { video_model_id: id }),
      (r) => dataOf(r).video_status >= 3,
      60_000,
    );

  it('composes scene by scene at the requested size and length, with the voice', async () => {
    const voice = { voice_url: sample(sandbox.em, 'voice-sandbox_ava.mp3') };
    const scene = (background: string, duration: number) => ({
      width: 320,
      height: 180,
      duration,
      voice,
      ratio: '16:9',
      background,
      avatarFrom: 2,
      elements: [
        {
          type: 'image',
          url: sample(sandbox.em, 'sandbox-backdrop.png'),
          scale_x: 1,
          scale_y: 1,
          offset_x: 0,
          offset_y: 0,
          layer_number: 1,
        },
        avatar(),
      ],
    });
    const created = dataOf(
      await call(sandbox.em, 'avatarVideoCreate', { data: [scene('#ffffff', 1000), scene('#000000', 800)] }),
    );
    expect(created).toMatchObject({ video_status: 1, video: '' });
    const done = dataOf(await info(created._id));
    expect(done).toMatchObject({ video_status: 3, source_data: { data: expect.any(Array) } });
    const p = await probe(String(done.video));
    expect(p).toMatchObject({ width: 320, height: 180, hasAudio: true });
    expect(p.duration).toBeCloseTo(1.8, 0);
    // The voice is audible, not a silent track.
    expect(await meanVolume(String(done.video))).toBeGreaterThan(-45);
  });

  it('validates avatar video bodies', async () => {
    const base = {
      width: 320,
      height: 180,
      duration: 1000,
      voice: { voice_url: sample(sandbox.em, 'voice-sandbox_ava.mp3') },
      elements: [avatar()],
    };
    expect(await call(sandbox.em, 'avatarVideoCreate', { data: [{ ...base, voice: {} }] })).toMatchObject({
      code: 1003,
      msg: 'data[0].voice: voice_id or voice_url must be provided',
    });
    expect(await call(sandbox.em, 'avatarVideoCreate', { data: [{ ...base, width: 4000 }] })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('width'),
    });
    expect(
      await call(sandbox.em, 'avatarVideoCreate', { data: [{ ...base, elements: [avatar({ scale_x: 1.5 })] }] }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('scale_x') });
    expect(
      await call(sandbox.em, 'avatarVideoCreate', { data: [{ ...base, elements: [avatar({ avatar_id: 'Nobody' })] }] }),
    ).toMatchObject({ code: 1008, msg: expect.stringContaining('Nobody') });
    expect(await call(sandbox.em, 'avatarVideoCreate', { data: [] })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('data'),
    });
  });

  it('makes a talking avatar that speaks input_text for as long as the speech lasts', async () => {
    const created = dataOf(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 320,
        height: 180,
        avatar_from: 2,
        elements: [
          { type: 'image', url: '#336699', scale_x: 1, scale_y: 1, offset_x: 0, offset_y: 0 },
          avatar(),
          { type: 'audio', input_text: 'Hello from the sandbox.', voice_id: 'sandbox_marcus' },
        ],
      }),
    );
    expect(created).toMatchObject({ video_status: 1, video: '' });
    const done = dataOf(await info(created._id));
    const p = await probe(String(done.video));
    expect(p).toMatchObject({ width: 320, height: 180, hasAudio: true });
    expect(p.duration).toBeGreaterThan(0.8);
    expect(p.duration).toBeLessThan(4);
    expect(await meanVolume(String(done.video))).toBeGreaterThan(-45);
  });

  it("accepts avatar_from 2 with the avatar's url as the official demo sends it, and ignores the url", async () => {
    const created = dataOf(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 160,
        height: 90,
        avatar_from: 2,
        elements: [
          avatar({ url: 'http://127.0.0.1:9/never-fetched.mp4' }),
          { type: 'audio', input_text: 'Hi.', voice_id: 'sandbox_marcus' },
        ],
      }),
    );
    expect(dataOf(await info(created._id))).toMatchObject({ video_status: 3 });
  });

  it("uses the caller's own avatar URL and audio URL with avatar_from 3", async () => {
    const created = dataOf(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 256,
        height: 256,
        avatar_from: 3,
        elements: [
          {
            type: 'avatar',
            url: sample(sandbox.em, 'avatar-SandboxAnna.mp4'),
            scale_x: 1,
            scale_y: 1,
            offset_x: 0,
            offset_y: 0,
          },
          {
            type: 'audio',
            url: sample(sandbox.em, 'voice-sandbox_isla.mp3'),
            input_text: 'ignored: url wins',
            voice_id: 'sandbox_ava',
          },
        ],
      }),
    );
    const done = dataOf(await info(created._id));
    const p = await probe(String(done.video));
    const speech = await probe(sample(sandbox.em, 'voice-sandbox_isla.mp3'));
    expect(p).toMatchObject({ width: 256, height: 256, hasAudio: true });
    expect(p.duration).toBeCloseTo(speech.duration, 0);
  });

  it('applies the talking avatar rules', async () => {
    const audio = { type: 'audio', input_text: 'hi', voice_id: 'sandbox_marcus' };
    expect(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 320,
        height: 180,
        avatar_from: 2,
        elements: [avatar(), { type: 'audio', input_text: 'hi' }],
      }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('voice_id') });
    expect(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 320,
        height: 3841,
        avatar_from: 2,
        elements: [avatar(), audio],
      }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('height') });
    expect(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 320,
        height: 180,
        avatar_from: 2,
        elements: [avatar({ offset_x: undefined }), audio],
      }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('offset_x') });
    expect(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 320,
        height: 180,
        avatar_from: 2,
        elements: [avatar(), { ...audio, input_text: 'x'.repeat(5001) }],
      }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('5000') });
    expect(
      await call(sandbox.em, 'talkingAvatarCreate', {
        width: 320,
        height: 180,
        avatar_from: 2,
        elements: [avatar(), { ...audio, voice_id: 'ghost' }],
      }),
    ).toMatchObject({ code: 1008, msg: expect.stringContaining('ghost') });
  });
});

describe('sandbox avatar upload', { timeout: SLOW }, () => {
  const sandbox = useSandbox();

  it('probes the link, makes a thumbnail, goes 1 → 3, and is listed and usable', async () => {
    const created = dataOf(
      await call(sandbox.em, 'avatarCreate', {
        url: sample(sandbox.em, 'avatar-SandboxCleo.mp4'),
        avatar_id: 'MyCleo1',
        name: 'Mine',
        type: '2',
        url_from: 1,
      }),
    );
    expect(created[0]).toMatchObject({ avatar_id: 'MyCleo1', status: 1, type: 2, from: 3 });
    const useIt = {
      width: 320,
      height: 180,
      avatar_from: 3,
      elements: [avatar({ avatar_id: 'MyCleo1' }), { type: 'audio', input_text: 'Hi.', voice_id: 'sandbox_ava' }],
    };
    expect(await call(sandbox.em, 'talkingAvatarCreate', useIt)).toMatchObject({
      code: 1010,
      msg: expect.stringContaining('not ready'),
    });
    const detail = await until(
      () => call(sandbox.em, 'avatarDetail', { id: String(created[0]._id) }),
      (r) => (dataOf(r)[0].status ?? 0) >= 3,
    );
    const row = dataOf(detail)[0];
    expect(row.status).toBe(3);
    expect(await probe(String(row.thumbnailUrl))).toMatchObject({ width: 320 });
    expect(dataOf(await call(sandbox.em, 'avatarList', { from: 3 })).map((a) => a.avatar_id)).toEqual(['MyCleo1']);
    expect((await call(sandbox.em, 'talkingAvatarCreate', useIt)).code).toBe(1000);
    expect(
      await call(sandbox.em, 'avatarCreate', {
        url: sample(sandbox.em, 'avatar-SandboxCleo.mp4'),
        avatar_id: 'MyCleo1',
        type: 1,
      }),
    ).toMatchObject({ code: 1222 });
    expect(
      await call(sandbox.em, 'avatarCreate', {
        url: sample(sandbox.em, 'avatar-SandboxCleo.mp4'),
        avatar_id: 'SandboxAnna',
        type: 1,
      }),
    ).toMatchObject({ code: 1222 });
    expect(
      await call(sandbox.em, 'avatarCreate', {
        url: sample(sandbox.em, 'avatar-SandboxCleo.mp4'),
        avatar_id: 'my_cleo',
        type: 1,
      }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('letters and digits') });
    expect(
      await call(sandbox.em, 'avatarCreate', {
        url: sample(sandbox.em, 'avatar-SandboxCleo.mp4'),
        avatar_id: 'x1',
        type: 3,
      }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('type') });
  });

  it('fails an upload whose link is not media, with the reason', async () => {
    const created = dataOf(
      await call(sandbox.em, 'avatarCreate', {
        url: `${sandbox.em.url}/sandbox/manifest.json`,
        avatar_id: 'Broken1',
        type: 1,
      }),
    );
    const detail = dataOf(
      await until(
        () => call(sandbox.em, 'avatarDetail', { id: String(created[0]._id) }),
        (r) => (dataOf(r)[0].status ?? 0) >= 3,
      ),
    );
    expect(detail[0]).toMatchObject({ status: 4 });
    expect(String((detail[0] as Record<string, unknown>).error_reasons)).toMatch(/url/);
  });
});
