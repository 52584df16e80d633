import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient, type ServiceError } from '../../../electron/services/client';
import { lightFetch } from '../../../electron/services/net/light-fetch';
import { audio, ttsBody } from './fake-fetch';

// The light client (the transport's and the sandbox storage's) against a real server on loopback: what
// reaches it, and the errors the transport reads to decide whether a paid create may be sent again.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function serve(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A port nothing listens on: one a server held and let go. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const init = (signal = new AbortController().signal) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', token: 'key-1' },
  body: '{"a":1}',
  signal,
  redirect: 'error' as const,
});

describe('the light client', () => {
  it('sends the method, headers and body, and reads the status, a header and the text', async () => {
    const { base, seen } = await serve((_req, res) => {
      res.writeHead(201, { 'Retry-After': '3', 'Content-Type': 'application/json' });
      res.end('{"code":1000}');
    });
    const answer = await lightFetch(`${base}/api/x?y=1`, init());
    expect(answer).toMatchObject({ ok: true, status: 201 });
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.headers.get('Retry-After')).toBe('3');
    expect(answer.headers.get('x-none')).toBeNull();
    expect(await answer.text()).toBe('{"code":1000}');
    expect(seen).toEqual([expect.objectContaining({ method: 'POST', url: '/api/x?y=1', body: '{"a":1}' })]);
    expect(seen[0]?.headers).toMatchObject({ 'content-type': 'application/json', token: 'key-1' });
  });

  it("sends a file's stream as the body, whole", async () => {
    const { base, seen } = await serve((_req, res) => res.end('{}'));
    const bytes = Buffer.alloc(300_000, 7);
    const answer = await lightFetch(base, {
      method: 'PUT',
      headers: { 'content-length': String(bytes.length) },
      body: Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]),
    });
    expect(answer.status).toBe(200);
    expect(seen[0]?.body.length).toBe(bytes.length);
  });

  it('answers an error status as an answer, not a throw', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(503);
      res.end('busy');
    });
    const answer = await lightFetch(base, init());
    expect(answer).toMatchObject({ ok: false, status: 503 });
    expect(await answer.text()).toBe('busy');
  });

  it('refuses a redirect with an error that carries no code, as fetch does', async () => {
    const { base, seen } = await serve((_req, res) => {
      res.writeHead(307, { Location: '/elsewhere' });
      res.end();
    });
    const error = (await lightFetch(base, init()).catch((e: unknown) => e)) as Error & { code?: string };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/redirect \(307\)/);
    expect(error.code).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it('names a refused connection and a dropped one by their codes', async () => {
    const refused = (await lightFetch(await closedPort(), init()).catch((e: unknown) => e)) as { code?: string };
    expect(refused.code).toBe('ECONNREFUSED');
    const { base } = await serve((req) => req.socket.destroy());
    const dropped = (await lightFetch(base, init()).catch((e: unknown) => e)) as { code?: string };
    expect(dropped.code).toBe('UND_ERR_SOCKET');
  });

  it('stops when its signal aborts while the answer is awaited', async () => {
    const { base } = await serve(() => undefined);
    const stop = new AbortController();
    const going = lightFetch(base, init(stop.signal));
    stop.abort();
    await expect(going).rejects.toBeTruthy();
  });
});

describe('a paid create through the transport over a real connection', () => {
  const client = (baseUrl: string) =>
    new ServiceClient({
      baseUrl,
      credentials: { kind: 'api-key', apiKey: 'key-abcdef123' },
      sleep: async () => undefined,
      random: () => 0.5,
    });

  it('is not sent again when the connection drops after the request arrived', async () => {
    const { base, seen } = await serve((req) => req.socket.destroy());
    const error = (await client(base)
      .call('audioCreate', ttsBody)
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'network', ambiguous: true });
    expect(seen).toHaveLength(1);
  });

  it('is not sent again after a redirect, which it does not follow', async () => {
    const { base, seen } = await serve((_req, res) => {
      res.writeHead(302, { Location: '/again' });
      res.end();
    });
    const error = (await client(base)
      .call('audioCreate', ttsBody)
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'network', ambiguous: true });
    expect(seen.map((s) => s.url)).toEqual(['/api/open/v3/audio/create']);
  });

  it('is answered with its record, and its key travels in the header', async () => {
    const { base, seen } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: 1000, msg: 'ok', data: audio }));
    });
    const record = await client(base).call('audioCreate', ttsBody);
    expect(record._id).toBe('a1');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(ttsBody);
    expect(seen[0]?.headers['x-api-key']).toBe('key-abcdef123');
  });

  it('is sent again when the connection was refused (nothing left this machine)', async () => {
    const error = (await client(await closedPort())
      .call('audioCreate', ttsBody)
      .catch((e: unknown) => e)) as ServiceError;
    // Every attempt was refused: retried to the limit, and not ambiguous (nothing was sent).
    expect(error).toMatchObject({ kind: 'network', ambiguous: false });
  });
});
