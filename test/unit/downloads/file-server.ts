import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '../../wait';

/** How the loopback server misbehaves for one path. Counters apply to requests in arrival order. */
export interface ServedFile {
  body: Buffer;
  etag?: string | null;
  lastModified?: string | null;
  /** Answer 200 with the whole file even when asked for a range. */
  ignoreRange?: boolean;
  /** The first N requests are answered with this status (e.g. 503). */
  failFirst?: { count: number; status: number };
  /**
   * The first N requests reset the connection after this many body bytes. A reset throws away what the
   * client has not read yet, so it comes only once `once` holds (say, the client's .part has bytes).
   */
  dropAfter?: { count: number; bytes: number; once: () => boolean };
  /** The first N requests announce the full length but send only this many bytes, then end cleanly. */
  shortBody?: { count: number; bytes: number };
  /**
   * The first request sends this many bytes (rounded up to a 16 KiB slice), then nothing more until the
   * client goes away (it paused, cancelled or was killed) or `until` holds: a download that is still
   * under way when the test acts on it, however slow the machine.
   */
  holdAfter?: { bytes: number; what: string; until?: () => boolean };
  /** Bytes per second (sent in 16 KiB slices); unlimited when absent. */
  throttle?: number;
}

export interface RequestLog {
  path: string;
  range: string | null;
  ifRange: string | null;
  status: number;
  bytesSent: number;
}

export interface FileServer {
  url(path: string): string;
  files: Map<string, ServedFile>;
  log: RequestLog[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 serving files with Range, validators and scripted faults. */
export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, ServedFile>();
  const log: RequestLog[] = [];
  const seen = new Map<string, number>();
  const server = createServer((req, res) => void serve(req, res));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const file = files.get(path);
    const n = seen.get(path) ?? 0;
    seen.set(path, n + 1);
    const entry: RequestLog = {
      path,
      range: req.headers.range ?? null,
      ifRange: (req.headers['if-range'] as string) ?? null,
      status: 0,
      bytesSent: 0,
    };
    log.push(entry);
    if (!file) return void end(res, entry, 404);
    if (file.failFirst && n < file.failFirst.count) return void end(res, entry, file.failFirst.status);
    const size = file.body.length;
    let start = 0;
    const validator = file.etag ?? file.lastModified ?? null;
    const range = /^bytes=(\d+)-$/.exec(entry.range ?? '');
    if (range && !file.ignoreRange && (entry.ifRange === null || entry.ifRange === validator)) {
      start = Number(range[1]);
      if (start >= size) {
        res.setHeader('content-range', `bytes */${size}`);
        return void end(res, entry, 416);
      }
      res.setHeader('content-range', `bytes ${start}-${size - 1}/${size}`);
      entry.status = 206;
    } else entry.status = 200;
    if (file.etag) res.setHeader('etag', file.etag);
    if (file.lastModified) res.setHeader('last-modified', file.lastModified);
    if (!file.ignoreRange) res.setHeader('accept-ranges', 'bytes');
    res.setHeader('content-length', String(size - start));
    res.setHeader('content-type', 'application/octet-stream');
    res.writeHead(entry.status);
    let limit = size;
    let drop = false;
    if (file.dropAfter && n < file.dropAfter.count) {
      limit = Math.min(size, start + file.dropAfter.bytes);
      drop = true;
    }
    if (file.shortBody && n < file.shortBody.count) limit = Math.min(size, start + file.shortBody.bytes);
    const slice = 16 * 1024;
    for (let at = start; at < limit; at += slice) {
      if (file.holdAfter && n === 0 && at - start >= file.holdAfter.bytes) {
        const { what, until: over = () => false } = file.holdAfter;
        await until(what, () => res.destroyed || res.socket === null || res.socket.destroyed || over());
        if (res.destroyed) return;
      }
      const chunk = file.body.subarray(at, Math.min(limit, at + slice));
      if (res.destroyed) return;
      const ok = res.write(chunk);
      entry.bytesSent += chunk.length;
      if (file.throttle) await new Promise((r) => setTimeout(r, (chunk.length / file.throttle!) * 1000));
      else if (!ok) await new Promise((r) => res.once('drain', r));
    }
    if (limit < size) {
      // Drop (a reset) or end the socket early (a clean close at the TCP level with bytes still
      // missing, which the client reads to the end).
      await new Promise((r) => res.write('', () => r(undefined)));
      if (drop && file.dropAfter) {
        // A fixed wait here (250 ms) was not always enough on a loaded machine: the client had read
        // nothing, and the test saw no partial file to resume.
        await until(`the client to have read part of ${path} before the connection drops`, file.dropAfter.once);
        res.socket?.destroy();
      } else res.socket?.end();
      return;
    }
    res.end();
  }

  function end(res: ServerResponse, entry: RequestLog, status: number): void {
    entry.status = status;
    res.statusCode = status;
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    files,
    log,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Deterministic bytes that differ at every offset, so a misplaced range shows up as a mismatch. */
export function patternBytes(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
