import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { MediaFetcher } from '../../../electron/emulator/media/fetch';
import { WebhookSender, type WebhookDelivery } from '../../../electron/emulator/jobs/webhooks';
import type { Files } from '../../../electron/emulator/state/files';
import { ACCESS_KEY_FILE } from '../../../electron/emulator/state/access-key';
import { MediaCache } from '../../../electron/services/media/media-cache';
import { call, dataOf, start, until } from './harness';

// Finding 4 of the security audit: the sandbox answered any Host, used a well-known key, and fetched
// (and posted webhooks to) 169.254.169.254 and 10.0.0.1; the web host's probe followed a redirect there.

const getWithHost = (url: string, host: string, apiKey: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(`${url}/api/open/v3/voice/list`, { headers: { host, 'x-api-key': apiKey } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

let dir: string;
let em: RunningEmulator;
let redirector: Server;
let redirectUrl: string;
let served = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-security-'));
  em = await start({ dataDir: join(dir, 'one') });
  redirector = createServer((req, res) => {
    served += 1;
    res
      .writeHead(302, {
        location: req.url === '/to-private' ? 'http://10.0.0.1/x.png' : 'http://169.254.169.254/latest/meta-data/',
      })
      .end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  const address = redirector.address();
  redirectUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await em?.close();
  await new Promise((resolve) => redirector?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('sandbox access', () => {
  it('refuses a foreign Host header (DNS rebinding) and answers its own names', async () => {
    const port = new URL(em.url).port;
    expect(await getWithHost(em.url, 'evil.example', em.apiKey)).toBe(403);
    expect(await getWithHost(em.url, `evil.example:${port}`, em.apiKey)).toBe(403);
    expect(await getWithHost(em.url, `127.0.0.1:${port}`, em.apiKey)).toBe(200);
    expect(await getWithHost(em.url, `localhost:${port}`, em.apiKey)).toBe(200);
  });

  it('uses a key generated per data folder, kept readable by this user only, the same after a restart', async () => {
    expect(em.apiKey).not.toBe('sandbox-api-key');
    expect(em.apiKey.length).toBeGreaterThanOrEqual(24);
    expect(statSync(join(dir, 'one', ACCESS_KEY_FILE)).mode & 0o077).toBe(0);
    const other = await start({ dataDir: join(dir, 'two') });
    const again = await start({ dataDir: join(dir, 'one') });
    try {
      expect(other.apiKey).not.toBe(em.apiKey);
      expect(other.clientSecret).not.toBe(em.clientSecret);
      expect(again.apiKey).toBe(em.apiKey);
      expect(await getWithHost(other.url, new URL(other.url).host, em.apiKey)).toBe(200); // answered, as an error envelope
    } finally {
      await other.close();
      await again.close();
    }
  });
});

describe('internal addresses', () => {
  const files = { localFileFor: () => null, baseUrl: 'http://127.0.0.1:1' } as unknown as Files;

  it('the sandbox fetches no link-local, metadata or internal address, redirects included', async () => {
    const fetcher = new MediaFetcher(files, join(dir, 'fetch'));
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/a.png',
      'http://[fe80::1]/a.png',
      'http://metadata.google.internal/x',
      `${redirectUrl}/to-metadata`,
      `${redirectUrl}/to-private`,
    ]) {
      await expect(fetcher.toFile(url, 'image_url'), url).rejects.toMatchObject({
        code: 1003,
        message: expect.stringMatching(/link-local|internal network/),
      });
    }
    expect(served).toBe(2);
  });

  it('the sandbox posts no webhook to an internal address', async () => {
    const sent: string[] = [];
    const sender = new WebhookSender(1, 1, () => undefined, (async (url: string) => {
      sent.push(url);
      return new Response('ok');
    }) as typeof fetch);
    const delivery = await new Promise<WebhookDelivery>((resolve) =>
      sender.send('http://169.254.169.254/hook', 'j1', {}, resolve),
    );
    expect(delivery).toMatchObject({ delivered: false, lastError: expect.stringMatching(/link-local/) });
    const privateHook = await new Promise<WebhookDelivery>((resolve) =>
      sender.send('http://10.0.0.1/hook', 'j2', {}, resolve),
    );
    expect(privateHook.delivered).toBe(false);
    expect(sent).toEqual([]);
  });

  it("the studio's media cache (the web host's probe) refuses metadata targets, also behind a redirect", async () => {
    const cache = new MediaCache({ dir: join(dir, 'cache'), maxBytes: 1_000_000 });
    const before = served;
    await expect(cache.localPath('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(
      /link-local or cloud-metadata/,
    );
    await expect(cache.localPath(`${redirectUrl}/to-metadata`)).rejects.toThrow(/link-local or cloud-metadata/);
    expect(served).toBe(before + 1);
  });
});

// Finding 5 of the security audit: a 1,000,000-character "word" passed the 5,000-word check and made a
// 397 MB WAV while 81 jobs waited behind it.
describe('one request cannot jam the sandbox', () => {
  const info = (sandbox: RunningEmulator, id: string) => call(sandbox, 'audioInfo', { audio_model_id: id });
  const finished = async (sandbox: RunningEmulator, id: string) =>
    dataOf(
      await until(
        () => info(sandbox, id),
        (r) => dataOf(r).status >= 3,
      ),
    );

  it('caps characters as well as words', async () => {
    expect(await call(em, 'audioCreate', { input_text: 'a'.repeat(1_000_000), voice_id: 'sandbox_ava' })).toMatchObject(
      { code: 1003, msg: expect.stringContaining('50000 characters') },
    );
  });

  it('bounds each job in time and in output size, and frees its place for the next', async () => {
    const slow = await start({ dataDir: join(dir, 'bounded-time'), jobSeconds: 0, jobTimeoutSeconds: 0.001 });
    const small = await start({ dataDir: join(dir, 'bounded-size'), jobSeconds: 0, maxResultMb: 0.001 });
    try {
      const text = { input_text: 'The quick brown fox jumps over the lazy dog.', voice_id: 'sandbox_ava' };
      const timed = await Promise.all([1, 2, 3, 4].map(async () => dataOf(await call(slow, 'audioCreate', text))._id));
      for (const id of timed)
        expect(await finished(slow, id)).toMatchObject({
          status: 4,
          error_reasons: [expect.stringMatching(/longer than 0 s, the sandbox's limit per job/)],
        });
      const big = dataOf(await call(small, 'audioCreate', text))._id;
      expect(await finished(small, big)).toMatchObject({
        status: 4,
        error_reasons: [expect.stringMatching(/more than the sandbox's 0 MB per job/)],
      });
    } finally {
      await slow.close();
      await small.close();
    }
  }, 120_000);
});
