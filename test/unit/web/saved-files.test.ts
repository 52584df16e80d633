// The web host serves a saved copy to its own page only: the same Host/Origin/token check as every
// route, only ids the download queue vouches for, with one byte range for seeking.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { cookieName } from '../../../electron/web/access';
import { startWebServer, type WebServer } from '../../../electron/web/server';

const token = 'saved-files-token-abcdefghijklmnop';
let server: WebServer;
let host: string;
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  mkdirSync(join(rendererDir, 'assets'));
  const file = join(rendererDir, '..', `saved-${Date.now()}.mp4`);
  writeFileSync(file, bytes);
  const base = createMemoryHostBase({ dataDir: mkdtempSync(join(tmpdir(), 'studio-web-data-')) });
  const domains = {
    importFile: async () => {
      throw new Error('unused');
    },
    importSheet: async () => {
      throw new Error('unused');
    },
    savedFile: async (id: string) => (id === 'granted' ? file : null),
  };
  server = await startWebServer({
    services: { base, dispatch: async () => ({ ok: true }), domains, subscribe: () => () => undefined } as never,
    rendererDir,
    token,
    port: 0,
  });
  host = `127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

describe('saved copies in the web host', () => {
  it('refuses without the token or from another origin, 404s an id the queue does not vouch for, serves and seeks a granted one', async () => {
    const cookie = `${cookieName(server.port)}=${token}`;
    expect(
      (await server.app.inject({ method: 'GET', url: '/bridge/saved/granted', headers: { host } })).statusCode,
    ).toBe(401);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: '/bridge/saved/granted',
          headers: { host, cookie, origin: 'http://evil.test' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await server.app.inject({ method: 'GET', url: '/bridge/saved/granted', headers: { host: 'evil.test', cookie } }))
        .statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect(
      (await server.app.inject({ method: 'GET', url: '/bridge/saved/other', headers: { host, cookie } })).statusCode,
    ).toBe(404);
    const whole = await server.app.inject({ method: 'GET', url: '/bridge/saved/granted', headers: { host, cookie } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await server.app.inject({
      method: 'GET',
      url: '/bridge/saved/granted',
      headers: { host, cookie, range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
  });
});
