import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface BodyDeadlineOptions {
  /** Every request gets this long to arrive whole, plus the time its declared length takes at minBytesPerSecond. */
  graceMs?: number;
  /** The slowest body rate a client is owed; uploads on loopback run far above it. */
  minBytesPerSecond?: number;
  /** A body that sends nothing for this long is given up on whatever its deadline. */
  idleMs?: number;
  /** How often unfinished bodies are looked at. */
  checkEveryMs?: number;
}

const TIMED_OUT =
  'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe request took too long to arrive.\n';

const DEFAULTS: Required<BodyDeadlineOptions> = {
  graceMs: 15_000,
  minBytesPerSecond: 256 * 1024,
  idleMs: 10_000,
  checkEveryMs: 1_000,
};

/**
 * Bounds how long a request may take to arrive. Fastify sets no request time limit, so a client trickling
 * a body a byte at a time held a connection (and the parser's buffers) for as long as it liked: a hundred
 * of them kept a host busy for minutes. A request still arriving past its deadline, or silent for idleMs,
 * is answered 408 and its connection closed. Progress is read from the socket's byte count, so the body
 * stream itself is left to the route.
 */
export function limitBodyTime(app: FastifyInstance, options: BodyDeadlineOptions = {}): void {
  const { graceMs, minBytesPerSecond, idleMs, checkEveryMs } = { ...DEFAULTS, ...options };
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    // A request injected by the process itself (Fastify's inject) has no connection to wait on, and its
    // stand-in socket cannot be ended or destroyed.
    if (raw.complete || !(raw.socket instanceof Socket)) return;
    const declared = Number(raw.headers['content-length']);
    const started = Date.now();
    const deadline =
      started + graceMs + (Number.isFinite(declared) && declared > 0 ? (declared / minBytesPerSecond) * 1000 : 0);
    let lastBytes = raw.socket.bytesRead;
    let lastProgress = started;
    const timer = setInterval(() => {
      if (raw.complete || raw.destroyed) return clearInterval(timer);
      const now = Date.now();
      const bytes = raw.socket.bytesRead;
      if (bytes > lastBytes) {
        lastBytes = bytes;
        lastProgress = now;
      }
      if (now < deadline && now - lastProgress < idleMs) return;
      clearInterval(timer);
      const socket = raw.socket;
      // The route has not answered (its body never came), so the socket is still ours to answer on.
      if (!reply.raw.headersSent && !socket.destroyed) socket.end(TIMED_OUT);
      setTimeout(() => socket.destroy(), 200).unref();
    }, checkEveryMs);
    timer.unref();
    raw.once('close', () => clearInterval(timer));
  });
}
