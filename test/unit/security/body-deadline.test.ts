import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator } from '../../../electron/emulator';
import { limitBodyTime } from '../../../electron/services/host/body-deadline';
import { createDispatcher } from '../../../electron/services/host/dispatcher';
import { createDomains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { cookieName } from '../../../electron/web/access';
import { startWebServer } from '../../../electron/web/server';
import { CATALOGUE_ROOT } from '../emulator/harness';
import { HANG_GUARD_MS } from '../../wait';

const QUICK = { graceMs: 400, idleMs: 300, minBytesPerSecond: 1000, checkEveryMs: 50 };

let app: FastifyInstance | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await app?.close();
  app = undefined;
  for (const close of closers.splice(0)) await close();
});

/** The server's ends of its connections, to see how much of a body has reached it. */
let accepted: Socket[] = [];

async function serve(): Promise<number> {
  app = Fastify({ forceCloseConnections: true });
  limitBodyTime(app, QUICK);
  app.post('/echo', async (request) => ({ got: (request.body as { text: string }).text.length }));
  accepted = [];
  app.server.on('connection', (socket: Socket) => accepted.push(socket));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * The limit's own time, as a fake clock the test moves: its deadline reads Date.now and its checks run
 * on setInterval. Sockets and the rest stay on real time. A trickled body is then "slow" or "in time"
 * by the steps the test takes, never by how fast this machine happens to send and read it.
 */
function fakeLimitClock(): void {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
}

/**
 * Settles once `check` holds, looking on real timers. (`until` of test/wait.ts polls with vi.waitFor,
 * which moves a fake clock at every look; here the limit's clock must move only when the test moves it.)
 * The guard is a hang guard only, and its error names what was awaited.
 */
async function until(what: string, check: () => boolean): Promise<void> {
  const guard = performance.now() + HANG_GUARD_MS;
  while (!check()) {
    if (performance.now() > guard)
      throw new Error(`waited ${HANG_GUARD_MS / 1000} s for ${what}, and it did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One raw POST to /echo whose body the test sends piece by piece, between moves of the fake clock. */
function rawPost(port: number, length: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let answer = '';
  let closed = false;
  socket.on('data', (chunk) => (answer += chunk.toString()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  socket.write(
    `POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
  );
  return {
    answer: () => answer,
    closed: () => closed,
    /** Sends bytes and settles once the server's end of the connection has read all sent so far (or answered). */
    async send(bytes: string): Promise<void> {
      socket.write(bytes);
      await until(
        'the server to read every byte sent so far',
        () => closed || answer !== '' || (accepted.length === 1 && accepted[0].bytesRead === socket.bytesWritten),
      );
    },
    /** Settles once the server has started timing this request's body (its check is a fake interval). */
    timed: () => until('the body limit to start timing the request', () => vi.getTimerCount() > 0),
    ended: () => until('the server to answer and close the connection', () => closed),
  };
}

/** Sends the headers, then the body in `pieces` spaced `gapMs` apart; resolves with what came back. */
function trickle(
  port: number,
  body: string,
  pieces: number,
  gapMs: number,
  request: { path: string; headers?: string } = { path: '/echo' },
): Promise<{ answer: string }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve({ answer }));
    socket.on('error', () => undefined);
    socket.write(
      `POST ${request.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${request.headers ?? ''}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
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
  // Fails when the deadline is removed (only the idle rule left): the body keeps coming, so it would
  // arrive whole and be answered 200.
  it('answers 408 and closes a body trickled slower than its deadline allows', async () => {
    fakeLimitClock();
    const port = await serve();
    const body = JSON.stringify({ text: 'x'.repeat(200) });
    // 20 pieces, one every 100 ms of the limit's clock (never idle for its 300 ms): 2 s to arrive,
    // against 0.4 s of grace plus 0.2 s for its 211 bytes at 1000 B/s.
    const post = rawPost(port, body.length);
    await post.timed();
    const size = Math.ceil(body.length / 20);
    let sent = 0;
    while (sent < body.length && !post.closed() && post.answer() === '') {
      await post.send(body.slice(sent, sent + size));
      sent += size;
      vi.advanceTimersByTime(100);
    }
    await post.ended();
    expect(post.answer()).toMatch(/^HTTP\/1\.1 408/);
    // Answered at the deadline, with most of the body still to come.
    expect(sent).toBeLessThan(body.length / 2);
  });

  it('gives up on a body that stops coming', async () => {
    fakeLimitClock();
    const port = await serve();
    const post = rawPost(port, JSON.stringify({ text: 'abc' }).length);
    await post.timed();
    // Silent for the idle time and a check more, still before the deadline (0.4 s and 14 ms).
    vi.advanceTimersByTime(QUICK.idleMs + QUICK.checkEveryMs);
    await post.ended();
    expect(post.answer()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('leaves a body that arrives in time alone', async () => {
    fakeLimitClock();
    const port = await serve();
    const body = JSON.stringify({ text: 'x'.repeat(50) });
    const post = rawPost(port, body.length);
    await post.timed();
    // Three pieces 100 ms apart by the limit's clock: well inside both its deadline and its idle time.
    const size = Math.ceil(body.length / 3);
    for (let sent = 0; sent < body.length; sent += size) {
      vi.advanceTimersByTime(100);
      await post.send(body.slice(sent, sent + size));
    }
    await post.ended();
    expect(post.answer()).toMatch(/^HTTP\/1\.1 200/);
    expect(post.answer()).toContain('{"got":50}');
  });

  it('leaves a request injected by the process itself alone after its deadline (no connection to close)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    app = Fastify();
    limitBodyTime(app, QUICK);
    app.get('/hello', async () => 'hi');
    const thrown: unknown[] = [];
    const record = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', record);
    try {
      expect((await app.inject({ method: 'GET', url: '/hello' })).body).toBe('hi');
      // Past the deadline and the destroy that follows it, on the fake clock: a timer the limit had
      // set would run here, and nothing may throw from it.
      vi.advanceTimersByTime(QUICK.graceMs + QUICK.idleMs + 400);
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
    const server = await startWebServer({
      services: { base, dispatch, domains, subscribe: () => () => undefined },
      rendererDir,
      token,
      port: 0,
      bodyTime: QUICK,
    });
    closers.push(() => server.close());
    const { answer } = await trickle(server.port, '[]', 1, 60_000, {
      path: '/bridge/call/system.pendingNotices',
      headers: `Cookie: ${cookieName(server.port)}=${token}\r\n`,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('the sandbox answers 408 to a request whose body stops coming', async () => {
    const sandbox = await startEmulator({
      port: 0,
      catalogueDir: CATALOGUE_ROOT,
      dataDir: mkdtempSync(join(tmpdir(), 'studio-sbx-')),
      bodyTime: QUICK,
    });
    closers.push(() => sandbox.close());
    const { answer } = await trickle(Number(new URL(sandbox.url).port), '{"text":"hello"}', 1, 60_000, {
      path: '/api/open/v1/tts/create',
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
