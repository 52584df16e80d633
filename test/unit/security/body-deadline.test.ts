import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../electron/emulator';
import { limitBodyTime } from '../../../electron/services/host/body-deadline';
import { createDispatcher } from '../../../electron/services/host/dispatcher';
import { createDomains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { cookieName } from '../../../electron/web/access';
import { startWebServer } from '../../../electron/web/server';
import { CATALOGUE_ROOT } from '../emulator/harness';

const QUICK = { graceMs: 400, idleMs: 300, minBytesPerSecond: 1000, checkEveryMs: 50 };

let app: FastifyInstance | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const close of closers.splice(0)) await close();
});

async function serve(): Promise<number> {
  app = Fastify({ forceCloseConnections: true });
  limitBodyTime(app, QUICK);
  app.post('/echo', async (request) => ({ got: (request.body as { text: string }).text.length }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Sends the headers, then the body in `pieces` spaced `gapMs` apart; resolves with what came back and when. */
function trickle(port: number, body: string, pieces: number, gapMs: number, request: { path: string; headers?: string } = { path: '/echo' }): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve({ answer, ms: Date.now() - started }));
    socket.on('error', () => undefined);
    socket.write(`POST ${request.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${request.headers ?? ''}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    const size = Math.ceil(body.length / pieces);
    let sent = 0;
    const next = () => {
      if (socket.destroyed || sent >= body.length) return;
      socket.write(body.slice(sent, sent + size));
      sent += size;
      setTimeout(next, gapMs);
    };
    setTimeout(next, gapMs);
  });
}

describe('request body time limit', () => {
  it('answers 408 and closes a body trickled slower than its deadline allows', async () => {
    const port = await serve();
    const body = JSON.stringify({ text: 'x'.repeat(200) });
    // 20 pieces 150 ms apart: 3 s to arrive, against 0.4 s of grace plus 0.2 s for 200 bytes at 1000 B/s.
    const { answer, ms } = await trickle(port, body, 20, 150);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(2_500);
  });

  it('gives up on a body that stops coming', async () => {
    const port = await serve();
    const { answer } = await trickle(port, JSON.stringify({ text: 'abc' }), 1, 60_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('leaves a body that arrives in time alone', async () => {
    const port = await serve();
    const { answer } = await trickle(port, JSON.stringify({ text: 'x'.repeat(50) }), 3, 100);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('{"got":50}');
  });

  it('leaves a request injected by the process itself alone after its deadline (no connection to close)', async () => {
    app = Fastify();
    limitBodyTime(app, QUICK);
    app.get('/hello', async () => 'hi');
    const thrown: unknown[] = [];
    const record = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', record);
    try {
      expect((await app.inject({ method: 'GET', url: '/hello' })).body).toBe('hi');
      // Past the deadline and the destroy that follows it: nothing may throw from the timers.
      await new Promise((resolve) => setTimeout(resolve, QUICK.graceMs + QUICK.idleMs + 400));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(thrown).toEqual([]);
  });
});

describe('the hosts bound request bodies', () => {
  it('the web host answers 408 to a bridge call whose body stops coming', async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
    mkdirSync(join(rendererDir, 'assets'));
    const base = createMemoryHostBase({ dataDir: mkdtempSync(join(tmpdir(), 'studio-web-data-')) });
    const domains = createDomains(base);
    const dispatch = createDispatcher({ handlers: domains.handlers, log: base.log, redact: (t) => t });
    const token = 'test-token-abcdefghijklmnop';
    const server = await startWebServer({ services: { base, dispatch, domains, subscribe: () => () => undefined }, rendererDir, token, port: 0, bodyTime: QUICK });
    closers.push(() => server.close());
    const { answer } = await trickle(server.port, '[]', 1, 60_000, { path: '/bridge/call/system.pendingNotices', headers: `Cookie: ${cookieName(server.port)}=${token}\r\n` });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('the sandbox answers 408 to a request whose body stops coming', async () => {
    const sandbox = await startEmulator({ port: 0, catalogueDir: CATALOGUE_ROOT, dataDir: mkdtempSync(join(tmpdir(), 'studio-sbx-')), bodyTime: QUICK });
    closers.push(() => sandbox.close());
    const { answer } = await trickle(Number(new URL(sandbox.url).port), '{"text":"hello"}', 1, 60_000, { path: '/api/open/v1/tts/create' });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
