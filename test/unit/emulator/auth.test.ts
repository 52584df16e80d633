import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { call, dataOf, start, SLOW } from './harness';

describe('sandbox authentication', { timeout: SLOW }, () => {
  let em: RunningEmulator;
  let clock = Date.now();
  beforeAll(async () => {
    em = await start({ tokenTtlSeconds: 60, now: () => clock });
  }, SLOW);
  afterAll(() => em.close());

  it('answers 1102 without credentials and 1101 for a wrong key', async () => {
    expect(await call(em, 'voiceList', {}, { anonymous: true })).toMatchObject({ code: 1102 });
    expect(await call(em, 'voiceList', {}, { anonymous: true, headers: { 'x-api-key': 'nope' } })).toMatchObject({
      code: 1101,
    });
    expect(
      await call(em, 'voiceList', {}, { anonymous: true, headers: { 'x-api-key': '  ', authorization: '' } }),
    ).toMatchObject({ code: 1102 });
  });

  it('issues tokens for the client id and secret and accepts them as Bearer', async () => {
    expect(
      await call(em, 'getToken', { clientId: em.clientId, clientSecret: 'wrong' }, { anonymous: true }),
    ).toMatchObject({ code: 1101 });
    expect(await call(em, 'getToken', { clientId: em.clientId }, { anonymous: true })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('clientSecret'),
    });
    const res = await call(
      em,
      'getToken',
      { clientId: em.clientId, clientSecret: em.clientSecret },
      { anonymous: true },
    );
    expect(res.code).toBe(1000);
    const token = String(res.token);
    expect(
      dataOf(await call(em, 'voiceList', {}, { anonymous: true, headers: { authorization: `Bearer ${token}` } }))
        .length,
    ).toBeGreaterThan(3);
    expect(
      await call(em, 'voiceList', {}, { anonymous: true, headers: { authorization: `Bearer ${token}x` } }),
    ).toMatchObject({ code: 1101 });
    expect(await call(em, 'voiceList', {}, { anonymous: true, headers: { authorization: token } })).toMatchObject({
      code: 1101,
    });
  });

  it('lets Authorization decide when both headers carry values', async () => {
    const res = await call(
      em,
      'getToken',
      { clientId: em.clientId, clientSecret: em.clientSecret },
      { anonymous: true },
    );
    const token = String(res.token);
    // A valid token beats a wrong key; a wrong token is refused even beside the right key.
    expect(
      (
        await call(
          em,
          'voiceList',
          {},
          { anonymous: true, headers: { 'x-api-key': 'wrong', authorization: `Bearer ${token}` } },
        )
      ).code,
    ).toBe(1000);
    expect(await call(em, 'voiceList', {}, { headers: { authorization: 'Bearer forged' } })).toMatchObject({
      code: 1101,
    });
  });

  it("answers the credit balance at quota/info, as the service's demos read it", async () => {
    const res = await fetch(`${em.url}/api/open/v3/faceswap/quota/info`, { headers: { 'x-api-key': em.apiKey } });
    expect(await res.json()).toEqual({ code: 1000, msg: 'OK', data: { credit: em.credits() } });
  });

  it('takes the client secret as an API key, as the service does', async () => {
    expect(
      dataOf(await call(em, 'voiceList', {}, { anonymous: true, headers: { 'x-api-key': em.clientSecret } })).length,
    ).toBeGreaterThan(3);
  });

  it('expires tokens after their lifetime', async () => {
    const token = String(
      (await call(em, 'getToken', { clientId: em.clientId, clientSecret: em.clientSecret }, { anonymous: true })).token,
    );
    clock += 61_000;
    expect(
      await call(em, 'voiceList', {}, { anonymous: true, headers: { authorization: `Bearer ${token}` } }),
    ).toMatchObject({ code: 1101, msg: expect.stringMatching(/expired/i) });
  });
});

describe('sandbox token lifetime', { timeout: SLOW }, () => {
  it('issues tokens that live more than a year by default, like the service', async () => {
    const em = await start();
    try {
      const res = await call(
        em,
        'getToken',
        { clientId: em.clientId, clientSecret: em.clientSecret },
        { anonymous: true },
      );
      expect(Number((res.data as { expire: number }).expire)).toBeGreaterThan(365 * 24 * 3600);
    } finally {
      await em.close();
    }
  });
});

describe('sandbox rate limit', { timeout: SLOW }, () => {
  it('answers 1005 past N requests per second per credential', async () => {
    const em = await start({ rateLimit: 3 });
    try {
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await call(em, 'voiceList', {})).code);
      expect(codes.slice(0, 3)).toEqual([1000, 1000, 1000]);
      expect(codes.slice(3)).toEqual([1005, 1005]);
    } finally {
      await em.close();
    }
  });
});
