import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { call, dataOf, sample, start, until, SLOW } from './harness';

describe('sandbox live face swap sessions', { timeout: SLOW }, () => {
  let em: RunningEmulator;
  beforeAll(async () => {
    em = await start();
  }, SLOW);
  afterAll(() => em.close());
  const source = () => [{ path: sample(em, 'sandbox-face.png'), opts: '171,172:303,172:256,234:256,274' }];

  it('creates a session with channel credentials, then updates and closes it', async () => {
    const before = em.credits();
    const s = dataOf(await call(em, 'liveCreate', { sourceImage: source() }));
    expect(s).toMatchObject({ faceswap_status: 1, app_id: '' });
    expect(s.front_rtc_token.length).toBeGreaterThan(10);
    expect(s.channel_id).not.toBe('');
    expect(em.credits()).toBe(before - 10);
    expect(await call(em, 'liveUpdate', { _id: s._id, sourceImage: source() })).toEqual({ code: 1000, msg: 'OK' });
    expect(await call(em, 'liveClose', { _id: s._id })).toEqual({ code: 1000, msg: 'OK' });
    expect(await call(em, 'liveUpdate', { _id: s._id, sourceImage: source() })).toMatchObject({ code: 1219 });
    expect(await call(em, 'liveClose', { _id: s._id })).toMatchObject({ code: 1219 });
  });

  it('uses the liveAvatar codes for unknown sessions and 1104 for an empty balance', async () => {
    expect(await call(em, 'liveUpdate', { _id: 'nope', sourceImage: source() })).toMatchObject({ code: 1216 });
    expect(await call(em, 'liveClose', { _id: 'nope' })).toMatchObject({ code: 1216 });
    expect(await call(em, 'liveCreate', { sourceImage: [{ path: sample(em, 'sandbox-face.png'), opts: '1,2,3' }] })).toMatchObject({ code: 1003, msg: expect.stringContaining('opts') });
    expect(await call(em, 'liveCreate', { sourceImage: [] })).toMatchObject({ code: 1003, msg: expect.stringContaining('sourceImage') });
    em.setCredits(5);
    expect(await call(em, 'liveCreate', { sourceImage: source() })).toMatchObject({ code: 1104 });
    expect(em.credits()).toBe(5);
    em.setCredits(1000);
  });

  it('moves a session from 1 to 2 by itself (visible on the sandbox status route)', async () => {
    const s = dataOf(await call(em, 'liveCreate', { sourceImage: source() }));
    const status = async () => {
      const res = await fetch(`${em.url}/__sandbox/status`, { headers: { 'x-api-key': em.apiKey } });
      const body = (await res.json()) as { data: { live: { _id: string; faceswap_status: number }[] } };
      return body.data.live.find((l) => l._id === s._id)?.faceswap_status;
    };
    expect(await status()).toBe(1);
    expect(await until(status, (v) => v === 2)).toBe(2);
  });
});
