import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { call, dataOf, probe, start, until, SLOW } from './harness';
import { startReceiver, type Receiver } from './webhook-receiver';

describe('sandbox speech', { timeout: SLOW }, () => {
  let em: RunningEmulator;
  let hooks: Receiver;
  let hookUrl = '';
  beforeAll(async () => {
    em = await start();
    hooks = await startReceiver(em.clientId, em.clientSecret, 1);
    hookUrl = hooks.url;
  }, SLOW);
  afterAll(async () => {
    await em.close();
    hooks.close();
  });

  const info = (id: string) => call(em, 'audioInfo', { audio_model_id: id });

  it('speaks the text for real, 1 → 2 → 3, URL only at 3, and calls back (retrying)', async () => {
    const before = em.credits();
    const created = dataOf(
      await call(em, 'audioCreate', {
        input_text: 'The quick brown fox jumps over the lazy dog.',
        voice_id: 'sandbox_ava',
        rate: '50%',
        webhookUrl: hookUrl,
      }),
    );
    expect(created).toMatchObject({
      status: 1,
      url: '',
      input_text: 'The quick brown fox jumps over the lazy dog.',
      rate: '50%',
      from: 3,
    });
    expect(em.credits()).toBe(before - 1);
    const seen = new Set<number>();
    const done = await until(
      () => info(created._id),
      (r) => {
        const d = dataOf(r);
        seen.add(d.status);
        if (d.status < 3) expect(d.url).toBe('');
        return d.status >= 3;
      },
    );
    expect(seen.has(2) || seen.has(1)).toBe(true);
    const audio = dataOf(done);
    expect(audio.status).toBe(3);
    const p = await probe(audio.url);
    expect(p.hasAudio).toBe(true);
    expect(p.duration).toBeGreaterThan(1.5);
    // Encrypted and signed as the service's docs describe: a receiver written from the docs accepts it.
    const hook = await until(async () => hooks.events.find((h) => h._id === created._id && h.status === 3), Boolean);
    expect(hook).toEqual({ _id: created._id, status: 3, type: 'audio', url: audio.url });
    expect(hooks.events.filter((h) => h._id === created._id).map((h) => h.status)).toEqual([2, 3]);
    expect(hooks.answers[0]).toBe(500);
    expect(hooks.answers.slice(1).every((a) => a === 200)).toBe(true);
  });

  it('speaks faster at a higher rate', async () => {
    const text = 'Rate changes how quickly these exact words are spoken by the sandbox voice.';
    const slow = dataOf(await call(em, 'audioCreate', { input_text: text, voice_id: 'sandbox_oliver', rate: '10%' }));
    const fast = dataOf(await call(em, 'audioCreate', { input_text: text, voice_id: 'sandbox_oliver', rate: '100%' }));
    const a = dataOf(
      await until(
        () => info(slow._id),
        (r) => dataOf(r).status >= 3,
      ),
    );
    const b = dataOf(
      await until(
        () => info(fast._id),
        (r) => dataOf(r).status >= 3,
      ),
    );
    expect((await probe(a.url)).duration).toBeGreaterThan((await probe(b.url)).duration * 1.5);
  });

  it('rejects bad TTS input naming the field, and unknown ids', async () => {
    expect(await call(em, 'audioCreate', { input_text: 'hi', voice_id: 'sandbox_ava', rate: '101%' })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('rate'),
    });
    expect(await call(em, 'audioCreate', { input_text: 'word '.repeat(5001), voice_id: 'sandbox_ava' })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('5000 words'),
    });
    expect(await call(em, 'audioCreate', { voice_id: 'sandbox_ava' })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('input_text'),
    });
    expect(await call(em, 'audioCreate', { input_text: 'hi', voice_id: 42 })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('voice_id'),
    });
    expect(await call(em, 'audioCreate', { input_text: 'hi', voice_id: 'no_such_voice' })).toMatchObject({
      code: 1008,
      msg: expect.stringContaining('no_such_voice'),
    });
    expect(await info('ffffffffffffffffffffffff')).toMatchObject({ code: 1008 });
  });

  it('clones a voice from a sample: pitch follows the sample, and the voice joins the list', async () => {
    const voices = dataOf(await call(em, 'voiceList', { from: 3 }));
    const female = voices.find((v) => v.voice_id === 'sandbox_jade');
    const male = voices.find((v) => v.voice_id === 'sandbox_hugo');
    expect(await call(em, 'audioClone', { input_text: 'hello', rate: '50%' })).toMatchObject({
      code: 1003,
      msg: 'voice_id or voice_url must be provided',
    });
    expect(await call(em, 'audioClone', { input_text: 'hello', voice_url: female?.preview })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('rate'),
    });
    const fromFemale = dataOf(
      await call(em, 'audioClone', {
        input_text: 'A cloned voice speaks this sentence.',
        rate: '50%',
        voice_url: female?.preview,
      }),
    );
    const fromMale = dataOf(
      await call(em, 'audioClone', {
        input_text: 'A cloned voice speaks this sentence.',
        rate: '50%',
        voice_url: male?.preview,
      }),
    );
    const f = dataOf(
      await until(
        () => info(fromFemale._id),
        (r) => dataOf(r).status >= 3,
      ),
    );
    const m = dataOf(
      await until(
        () => info(fromMale._id),
        (r) => dataOf(r).status >= 3,
      ),
    );
    expect([f.status, m.status]).toEqual([3, 3]);
    expect((await probe(f.url)).duration).toBeGreaterThan(1);
    const own = dataOf(await call(em, 'voiceList', { from: 4 }));
    expect(own.map((v) => v.gender).sort()).toEqual(['Female', 'Male']);
    // The cloned voice works in TTS.
    const tts = dataOf(
      await call(em, 'audioCreate', { input_text: 'Now in my cloned voice.', voice_id: own[0].voice_id }),
    );
    expect(
      dataOf(
        await until(
          () => info(tts._id),
          (r) => dataOf(r).status >= 3,
        ),
      ).status,
    ).toBe(3);
  });

  it('fails a clone whose sample is not audio, with a reason, and refunds it', async () => {
    const before = em.credits();
    const bad = dataOf(
      await call(em, 'audioClone', { input_text: 'x', rate: '50%', voice_url: `${em.url}/sandbox/sandbox-face.png` }),
    );
    const r = dataOf(
      await until(
        () => info(bad._id),
        (x) => dataOf(x).status >= 3,
      ),
    );
    expect(r).toMatchObject({ status: 4, url: '' });
    expect(String((r as Record<string, unknown>).error_reasons)).toMatch(/voice_url/);
    expect(em.credits()).toBe(before);
  });
});
