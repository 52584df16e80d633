import { describe, expect, it } from 'vitest';
import { call, dataOf, sample, until, SLOW, useSandbox } from './harness';

describe('sandbox live face swap sessions', { timeout: SLOW }, () => {
  const sandbox = useSandbox();
  const source = () => [{ path: sample(sandbox.em, 'sandbox-face.png'), opts: '171,172:303,172:256,234:256,274' }];

  it('creates a session with channel credentials, then updates and closes it', async () => {
    const before = sandbox.em.credits();
    const s = dataOf(await call(sandbox.em, 'liveCreate', { sourceImage: source() }));
    expect(s).toMatchObject({ faceswap_status: 1, app_id: '' });
    expect(s.front_rtc_token.length).toBeGreaterThan(10);
    expect(s.channel_id).not.toBe('');
    expect(sandbox.em.credits()).toBe(before - 10);
    expect(await call(sandbox.em, 'liveUpdate', { _id: s._id, sourceImage: source() })).toEqual({
      code: 1000,
      msg: 'OK',
    });
    expect(await call(sandbox.em, 'liveClose', { _id: s._id })).toEqual({ code: 1000, msg: 'OK' });
    expect(await call(sandbox.em, 'liveUpdate', { _id: s._id, sourceImage: source() })).toMatchObject({ code: 1219 });
    expect(await call(sandbox.em, 'liveClose', { _id: s._id })).toMatchObject({ code: 1219 });
  });

  it('uses the liveAvatar codes for unknown sessions and 1104 for an empty balance', async () => {
    expect(await call(sandbox.em, 'liveUpdate', { _id: 'nope', sourceImage: source() })).toMatchObject({ code: 1216 });
    expect(await call(sandbox.em, 'liveClose', { _id: 'nope' })).toMatchObject({ code: 1216 });
    expect(
      await call(sandbox.em, 'liveCreate', {
        sourceImage: [{ path: sample(sandbox.em, 'sandbox-face.png'), opts: '1,2,3' }],
      }),
    ).toMatchObject({ code: 1003, msg: expect.stringContaining('opts') });
    expect(await call(sandbox.em, 'liveCreate', { sourceImage: [] })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('sourceImage'),
    });
    sandbox.em.setCredits(5);
    expect(await call(sandbox.em, 'liveCreate', { sourceImage: source() })).toMatchObject({ code: 1104 });
    expect(sandbox.em.credits()).toBe(5);
    sandbox.em.setCredits(1000);
  });

  it('moves a session from 1 to 2 by itself (visible on the sandbox status route)', async () => {
    const s = dataOf(await call(sandbox.em, 'liveCreate', { sourceImage: source() }));
    const status = async () => {
      const res = await fetch(`${sandbox.em.url}/__sandbox/status`, { headers: { 'x-api-key': sandbox.em.apiKey } });
      const body = (await res.json()) as { data: { live: { _id: string; faceswap_status: number }[] } };
      return body.data.live.find((l) => l._id === s._id)?.faceswap_status;
    };
    // Created queueing; the route is not read for that 1, since the sandbox may already have moved the
    // session on by the time a loaded machine answers the read.
    expect(s.faceswap_status).toBe(1);
    expect(await until(status, (v) => v === 2)).toBe(2);
  });
});
