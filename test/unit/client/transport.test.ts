import { describe, expect, it } from 'vitest';
import { API_CODES } from '../../../electron/common/api';
import {
  ServiceClient,
  ServiceError,
  codeExplanations,
  backoffDelay,
  parseRetryAfter,
} from '../../../electron/services/client';
import { audio, fail, hang, json, ok, scriptedFetch, socketError, ttsBody, voice, type Reply } from './fake-fetch';
import { until } from '../../wait';

const sleeps: number[] = [];
function client(script: Reply[], extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}) {
  const fake = scriptedFetch(script);
  sleeps.length = 0;
  const c = new ServiceClient({
    baseUrl: 'http://service.test/',
    credentials: { kind: 'api-key', apiKey: 'key-abcdef123' },
    fetch: fake.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    clock: { now: () => 1_000_000 },
    ...extra,
  });
  return { c, seen: fake.seen };
}

describe('reads', () => {
  it('sends the key header and array queries as types[]=n', async () => {
    const { c, seen } = client([ok([])]);
    await c.call('aiModelList', { types: [1501, 2101] });
    expect(seen[0].url).toBe('http://service.test/api/open/v4/aigModel/list?types%5B%5D=1501&types%5B%5D=2101');
    expect(seen[0].headers['x-api-key']).toBe('key-abcdef123');
  });

  it('paces a rate-limited connection just under the limit it learnt from the requests before the refusal', async () => {
    let now = 1_000_000;
    const waits: number[] = [];
    const fake = scriptedFetch([
      ...Array.from({ length: 20 }, () => ok([voice])),
      fail(1005, 'too frequent'),
      ok([voice]),
      ok([voice]),
      ok([voice]),
    ]);
    const c = new ServiceClient({
      baseUrl: 'http://service.test/',
      credentials: { kind: 'api-key', apiKey: 'key-abcdef123' },
      fetch: async (url, init) => {
        now += 10;
        return fake.fetch(url, init);
      },
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
      random: () => 0.5,
      clock: { now: () => now },
    });
    for (let i = 0; i < 20; i += 1) await c.call('voiceList', {});
    expect(waits).toEqual([]);
    const sent: number[] = [];
    await c.call('voiceList', {}, { onSent: (at) => sent.push(at) });
    // The caller learns when each attempt left: the refused one, then the retry after its turn.
    expect(sent).toEqual([1_000_200, 1_001_010]);
    // 20 taken in the second before the refusal: 19.5 a second from now on. The retry (after its
    // backoff, at 1_000_585) waits until the second request of the burst (sent at 1_000_010) has left the
    // service's one-second window, so the window never holds more than 20.
    expect(waits).toEqual([375, 1_001_010 - 1_000_585]);
    await c.call('voiceList', {});
    await c.call('voiceList', {});
    expect(waits.slice(2).every((ms) => ms > 0)).toBe(true);
  });

  it('retries on 5xx, network errors and 1005, honouring Retry-After', async () => {
    const { c, seen } = client([
      json({}, 502),
      socketError('ECONNRESET'),
      fail(1005, 'too frequent', { 'retry-after': '3' }),
      ok([voice]),
    ]);
    const voices = await c.call('voiceList', {});
    expect(voices[0].voice_id).toBe('voice-1');
    expect(seen).toHaveLength(4);
    // 500ms base, factor 2, half jitter at random 0.5: 375, 750; then the server's 3 s. The clock stands
    // still here, so the refusal came with nothing else in its window: one request a window from then on.
    expect(sleeps).toEqual([375, 750, 3000, 1000]);
  });

  it("asks the host's limiter for every attempt's turn and tells it of each 1005 alone, with that attempt's turn", async () => {
    const told: string[] = [];
    let turns = 0;
    const limiter = {
      turn: async () => (told.push(`turn ${turns}`), turns++),
      answered: () => void told.push('answered'),
      refused: async (at: number) => void told.push(`refused ${at}`),
      scarce: () => false,
    };
    const { c, seen } = client([fail(1005, 'too frequent'), json({}, 502), ok([voice])], { limiter });
    await c.call('voiceList', {});
    expect(seen).toHaveLength(3);
    expect(told).toEqual(['turn 0', 'refused 0', 'turn 1', 'answered', 'turn 2', 'answered']);
  });

  it('gives up after the attempt limit with the last error', async () => {
    const { c, seen } = client([json({}, 500), json({}, 500), json({}, 500), json({}, 500)]);
    const error = await c.call('voiceList', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).httpStatus).toBe(500);
    expect(seen).toHaveLength(4);
  });

  it('turns an answer that breaks the schema into a malformed error, not a crash', async () => {
    const { c } = client([ok([{ voice_id: 42 }])]);
    const error = (await c.call('voiceList', {}).catch((e: unknown) => e)) as ServiceError;
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/does not match the interface/);
    expect(error.endpoint).toBe('/api/open/v3/voice/list');
  });

  it('reports non-JSON success bodies as malformed', async () => {
    const { c } = client([new Response('<html>proxy</html>', { status: 200 })]);
    await expect(c.call('voiceList', {})).rejects.toMatchObject({ kind: 'malformed' });
  });

  it('times out each attempt and stops when the caller aborts', async () => {
    const { c, seen } = client([hang, hang, hang, hang], { timeoutMs: 20 });
    await expect(c.call('voiceList', {})).rejects.toMatchObject({ kind: 'timeout' });
    expect(seen).toHaveLength(4);

    const controller = new AbortController();
    const second = client([hang]);
    const pending = second.c.call('voiceList', {}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect(second.seen).toHaveLength(1);

    // Aborted while the request is on its way (fails when the caller's abort is not forwarded to it).
    const later = new AbortController();
    const third = client([hang]);
    const waiting = third.c.call('voiceList', {}, { signal: later.signal });
    await until('the call to reach the server', () => third.seen.length === 1);
    later.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('creates', () => {
  it('holds a create back when it may no longer go as it would leave, sending nothing and telling no send', async () => {
    const { c, seen } = client([ok(audio)]);
    const sent: number[] = [];
    const error = (await c
      .call('audioCreate', ttsBody, { stillGoes: () => false, onSent: (at) => sent.push(at) })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'aborted', ambiguous: false });
    expect(seen).toEqual([]);
    expect(sent).toEqual([]);
    // Asked as it leaves, and yes: it goes.
    const going = client([ok(audio)]);
    await going.c.call('audioCreate', ttsBody, { stillGoes: () => true });
    expect(going.seen).toHaveLength(1);
  });

  it('are never re-sent after the connection drops once the request was sent', async () => {
    const { c, seen } = client([socketError('ECONNRESET'), ok(audio)]);
    const error = (await c.call('audioCreate', ttsBody).catch((e: unknown) => e)) as ServiceError;
    expect(error.kind).toBe('network');
    expect(error.ambiguous).toBe(true);
    expect(error.explanation).toMatch(/unknown whether the service received it/);
    expect(seen).toHaveLength(1);
  });

  it('are never re-sent after a timeout or a 500', async () => {
    const timed = client([hang, ok(audio)], { timeoutMs: 20 });
    await expect(timed.c.call('audioCreate', ttsBody)).rejects.toMatchObject({ kind: 'timeout', ambiguous: true });
    expect(timed.seen).toHaveLength(1);
    const fivehundred = client([json({}, 500), ok(audio)]);
    await expect(fivehundred.c.call('audioCreate', ttsBody)).rejects.toMatchObject({ kind: 'http', ambiguous: true });
    expect(fivehundred.seen).toHaveLength(1);
  });

  it('are sent again when the service provably did not act (refused connection, 1005, 503)', async () => {
    const { c, seen } = client([socketError('ECONNREFUSED'), fail(1005), json({}, 503), ok(audio)]);
    const record = await c.call('audioCreate', ttsBody);
    expect(record._id).toBe('a1');
    expect(seen).toHaveLength(4);
  });

  it('fail clearly without sending anything when the body is invalid', async () => {
    const { c, seen } = client([]);
    const error = (await c.call('audioCreate', { ...ttsBody, rate: 'fast' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.kind).toBe('invalid');
    expect(error.message).toMatch(/rate/);
    expect(seen).toHaveLength(0);
  });

  it('report a business code with its explanation, service message and endpoint', async () => {
    const { c } = client([fail(1104, 'credit not enough')]);
    const error = (await c.call('audioCreate', ttsBody).catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({
      kind: 'service',
      code: 1104,
      serviceMessage: 'credit not enough',
      endpoint: '/api/open/v3/audio/create',
    });
    expect(error.explanation).toMatch(/Not enough credits/);
    expect(error.message).toContain('code 1104');
  });
});

describe('client credentials', () => {
  it('exchanges the id and secret once, refreshes once on 1101 and replays once', async () => {
    const token = (t: string) => json({ code: 1000, msg: 'ok', data: { token: t, expire: 3600 } });
    const { c, seen } = client([token('tok-1111111'), fail(1101), token('tok-2222222'), ok([voice])], {
      credentials: { kind: 'client-credentials', clientId: 'cid-123456', clientSecret: 'csecret-123456' },
    });
    await c.call('voiceList', {});
    expect(seen.map((s) => s.url.replace('http://service.test', ''))).toEqual([
      '/api/open/v3/getToken',
      '/api/open/v3/voice/list',
      '/api/open/v3/getToken',
      '/api/open/v3/voice/list',
    ]);
    expect(seen[1].headers.Authorization).toBe('Bearer tok-1111111');
    expect(seen[3].headers.Authorization).toBe('Bearer tok-2222222');
    expect(seen[0].headers.Authorization).toBeUndefined();
  });

  it('does not loop when the fresh token is refused too', async () => {
    const token = json({ code: 1000, msg: 'ok', token: 'tok-abcdefg' });
    const { c, seen } = client([token, fail(1101), token, fail(1101)], {
      credentials: { kind: 'client-credentials', clientId: 'cid-123456', clientSecret: 'csecret-123456' },
    });
    await expect(c.call('voiceList', {})).rejects.toMatchObject({ code: 1101 });
    expect(seen).toHaveLength(4);
  });
});

describe('face endpoints', () => {
  it('explain the detection and analyze-frames envelopes', async () => {
    const { c } = client([
      json({ error_code: 1, error_msg: 'No faces detected in the image' }),
      json({ success: false, error: 'Failed to download image from URL' }),
    ]);
    const detect = (await c
      .call('detectFaces', { url: 'https://x.test/a.jpg' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(detect.explanation).toMatch(/No face was found/);
    const analyze = (await c
      .call('analyzeFrames', { frame_urls: ['https://x.test/a.jpg'] })
      .catch((e: unknown) => e)) as ServiceError;
    expect(analyze.explanation).toMatch(/could not download a frame/);
  });

  it('explain their own envelope even when a business code travels beside it, but still back off on 1005', async () => {
    const { c, seen } = client([
      json({ error_code: 1, error_msg: 'No faces detected', code: 1003, msg: 'No faces detected' }),
      json({ error_code: 1, error_msg: 'slow down', code: 1005, msg: 'Operation too frequent' }),
      json({ error_code: 0, error_msg: '', faces_obj: {} }),
    ]);
    const detect = (await c
      .call('detectFaces', { url: 'https://x.test/a.jpg' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(detect).toMatchObject({ code: 1003, serviceMessage: 'No faces detected' });
    expect(detect.explanation).toMatch(/No face was found/);
    await c.call('detectFaces', { url: 'https://x.test/a.jpg' });
    expect(seen).toHaveLength(3);
  });
});

describe('explanations and backoff', () => {
  it('explain every code in the service table', () => {
    for (const code of Object.keys(API_CODES).map(Number))
      expect(codeExplanations[code], `code ${code}`).toMatch(/.{20,}/);
  });

  it('grow exponentially, stay under the cap, and read Retry-After in both forms', () => {
    const policy = { baseMs: 100, capMs: 1000, factor: 2, jitter: 0.5 };
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, policy, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(3, policy, () => 0)).toBe(400);
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('99999', 0)).toBe(300_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });

  it('refuses base URLs that would leak credentials or are not http', () => {
    expect(() => new ServiceClient({ baseUrl: 'http://user:pw@x.test' })).toThrow(/must not contain credentials/);
    expect(() => new ServiceClient({ baseUrl: 'ftp://x.test' })).toThrow(/http/);
    expect(() => new ServiceClient({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });
});
