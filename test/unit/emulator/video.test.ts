import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { call, dataOf, ffmpeg, probe, sample, serveDir, start, until, SLOW } from './harness';

describe('sandbox lip sync and video info', { timeout: SLOW }, () => {
  let em: RunningEmulator;
  let dir: string;
  let media: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    em = await start();
    dir = await mkdtemp(join(tmpdir(), 'sandbox-fixtures-'));
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=gray:s=32x32:r=1',
      '-t',
      '61',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      join(dir, 'long.mp4'),
    ]);
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=gray:s=32x32:r=61',
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      join(dir, 'fast.mp4'),
    ]);
    await writeFile(join(dir, 'notes.mp4'), 'this is text, not a video');
    media = await serveDir(dir);
  }, SLOW);
  afterAll(async () => {
    await em.close();
    await media.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts the given audio on the given video, keeping its pictures and length', async () => {
    const audio = sample(em, 'voice-sandbox_isla.mp3');
    const created = dataOf(
      await call(em, 'lipSync', { video_url: sample(em, 'avatar-SandboxAnna.mp4'), audio_url: audio }),
    );
    expect(created).toMatchObject({ video_status: 1, video: '', lipsync: true, input_audio: audio });
    const done = dataOf(
      await until(
        () => call(em, 'videoInfo', { video_model_id: created._id }),
        (r) => dataOf(r).video_status >= 3,
      ),
    );
    expect(done.video_status).toBe(3);
    const p = await probe(String(done.video));
    expect(p).toMatchObject({ width: 640, height: 360, hasAudio: true, hasVideo: true });
    expect(p.duration).toBeCloseTo(4, 0);
    // The result still shows the sandbox presenter, so face detection still finds her.
    expect((await call(em, 'detectFaces', { url: String(done.video), num_frames: 1 })).error_code).toBe(0);
  });

  it('checks the documented lip sync limits by probing the media', async () => {
    const audio = sample(em, 'voice-sandbox_isla.mp3');
    const before = em.credits();
    expect(await call(em, 'lipSync', { video_url: `${media.url}/long.mp4`, audio_url: audio })).toMatchObject({
      code: 1204,
      msg: expect.stringContaining('60 s'),
    });
    expect(await call(em, 'lipSync', { video_url: `${media.url}/fast.mp4`, audio_url: audio })).toMatchObject({
      code: 1210,
      msg: expect.stringContaining('60 fps'),
    });
    expect(await call(em, 'lipSync', { video_url: `${media.url}/huge.mp4`, audio_url: audio })).toMatchObject({
      code: 1207,
      msg: expect.stringContaining('300 MB'),
    });
    expect(await call(em, 'lipSync', { video_url: `${media.url}/notes.mp4`, audio_url: audio })).toMatchObject({
      code: 1208,
      msg: expect.stringContaining('video_url'),
    });
    expect(await call(em, 'lipSync', { video_url: `${media.url}/missing.mp4`, audio_url: audio })).toMatchObject({
      code: 1014,
      msg: expect.stringContaining('video_url'),
    });
    expect(
      await call(em, 'lipSync', {
        video_url: sample(em, 'avatar-SandboxAnna.mp4'),
        audio_url: sample(em, 'sandbox-face.png'),
      }),
    ).toMatchObject({ code: 1110, msg: expect.stringContaining('audio_url') });
    expect(await call(em, 'lipSync', { video_url: sample(em, 'avatar-SandboxAnna.mp4') })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('audio_url'),
    });
    expect(em.credits()).toBe(before);
  });

  it('answers unknown ids with 1008', async () => {
    expect(await call(em, 'videoInfo', { video_model_id: 'ffffffffffffffffffffffff' })).toMatchObject({ code: 1008 });
    expect(await call(em, 'videoInfo', {})).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('video_model_id'),
    });
  });
});

describe('sandbox character swap', { timeout: SLOW }, () => {
  let em: RunningEmulator;
  beforeAll(async () => {
    em = await start();
  }, SLOW);
  afterAll(() => em.close());

  it('charges per started 5 seconds and renders a composite at the resolution and duration', async () => {
    const before = em.credits();
    const created = dataOf(
      await call(em, 'characterSwapCreate', {
        image: sample(em, 'sandbox-face.png'),
        video: sample(em, 'sandbox-motion.mp4'),
        duration: 1.5,
        resolution: '480p',
        mode: 'animate',
        prompt: 'wave',
      }),
    );
    expect(created).toMatchObject({
      status: 1,
      deduction_credit: 5,
      resolution: '480p',
      mode: 'animate',
      video_duration: 1.5,
    });
    expect(em.credits()).toBe(before - 5);
    const done = dataOf(
      await until(
        () => call(em, 'videoInfo', { video_model_id: created._id }),
        (r) => dataOf(r).video_status >= 3,
      ),
    );
    expect(done).toMatchObject({ video_status: 3, deduction_credit: 5, video_url: sample(em, 'sandbox-motion.mp4') });
    const p = await probe(String(done.video));
    expect(p.height).toBe(480);
    expect(p.duration).toBeCloseTo(1.5, 0);
  });

  it("in replace mode puts the character's face over each face the sandbox knows in the video", async () => {
    const created = dataOf(
      await call(em, 'characterSwapCreate', {
        image: sample(em, 'sandbox-face.png'),
        video: sample(em, 'sandbox-motion.mp4'),
        duration: 1,
        resolution: '480p',
        mode: 'replace',
      }),
    );
    const onFaces = dataOf(
      await call(em, 'characterSwapCreate', {
        image: sample(em, 'sandbox-face.png'),
        video: sample(em, 'avatar-SandboxBen.mp4'),
        duration: 1,
        resolution: '480p',
        mode: 'replace',
      }),
    );
    for (const id of [created._id, onFaces._id]) {
      const done = dataOf(
        await until(
          () => call(em, 'videoInfo', { video_model_id: id }),
          (r) => dataOf(r).video_status >= 3,
        ),
      );
      expect(done.video_status).toBe(3);
      expect((await probe(String(done.video))).height).toBe(480);
    }
  });

  it('prices 12 s at 720p at 30 credits and refuses what the balance cannot cover', async () => {
    em.setCredits(29);
    const body = { image: sample(em, 'sandbox-face.png'), video: sample(em, 'sandbox-motion.mp4'), duration: 12 };
    expect(await call(em, 'characterSwapCreate', body)).toMatchObject({ code: 1006 });
    expect(em.credits()).toBe(29);
    em.setCredits(30);
    // The render itself is not under test here: fail it at once (which also shows the refund).
    em.setFaults({ failRate: 1 });
    try {
      const created = dataOf(await call(em, 'characterSwapCreate', { ...body, resolution: '720p' }));
      expect(created.deduction_credit).toBe(30);
      expect(em.credits()).toBe(0);
      await until(
        () => call(em, 'videoInfo', { video_model_id: created._id }),
        (r) => dataOf(r).video_status === 4,
      );
      expect(em.credits()).toBe(30);
    } finally {
      em.setFaults({ failRate: 0 });
      em.setCredits(1000);
    }
  });

  it('validates every documented rule, naming the field', async () => {
    const ok = { image: sample(em, 'sandbox-face.png'), video: sample(em, 'sandbox-motion.mp4') };
    expect(await call(em, 'characterSwapCreate', { ...ok, duration: 121 })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('duration'),
    });
    expect(await call(em, 'characterSwapCreate', { ...ok, duration: 0 })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('duration'),
    });
    expect(await call(em, 'characterSwapCreate', { ...ok, resolution: '2k' })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('resolution'),
    });
    expect(await call(em, 'characterSwapCreate', { ...ok, mode: 'blend' })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('mode'),
    });
    expect(await call(em, 'characterSwapCreate', { ...ok, prompt: 'p'.repeat(501) })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('prompt'),
    });
    expect(await call(em, 'characterSwapCreate', { ...ok, model_name: 'nope' })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('model_name'),
    });
    expect(await call(em, 'characterSwapCreate', { video: ok.video })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('image'),
    });
    expect(await call(em, 'characterSwapCreate', { ...ok, image: sample(em, 'sandbox-motion.mp4') })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('image'),
    });
    expect(await call(em, 'characterSwapCreate', { ...ok, video: sample(em, 'voice-sandbox_ava.mp3') })).toMatchObject({
      code: 1208,
      msg: expect.stringContaining('video'),
    });
  });

  it('fails with a reason and no charge when processing fails, and calls webhookurl', async () => {
    const { startReceiver } = await import('./webhook-receiver');
    const hook = await startReceiver(em.clientId, em.clientSecret);
    try {
      em.setFaults({ failRate: 1 });
      const before = em.credits();
      const created = dataOf(
        await call(em, 'characterSwapCreate', {
          image: sample(em, 'sandbox-face.png'),
          video: sample(em, 'sandbox-motion.mp4'),
          duration: 2,
          webhookurl: hook.url,
        }),
      );
      const done = dataOf(
        await until(
          () => call(em, 'videoInfo', { video_model_id: created._id }),
          (r) => dataOf(r).video_status >= 3,
        ),
      );
      expect(done).toMatchObject({
        video_status: 4,
        deduction_credit: 0,
        faceswap_fail_reason: expect.stringContaining('Injected fault'),
      });
      expect(done.video).toBeUndefined();
      expect(em.credits()).toBe(before);
      const hit = await until(async () => hook.events.find((e) => e.status === 4), Boolean);
      expect(hit).toEqual({ _id: created._id, status: 4, type: 'faceswap', url: '' });
    } finally {
      em.setFaults({ failRate: 0 });
      hook.close();
    }
  });
});
