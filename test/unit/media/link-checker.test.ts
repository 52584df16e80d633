import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkChecker } from '../../../electron/services/media/link-checker';
import { MediaCache } from '../../../electron/services/media/media-cache';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { FFPROBE, makeImage, makeTone } from '../../fixtures/composition/make-media';

let dir: string;
let server: Server;
let origin: string;
const files = new Map<string, Buffer>();
const gone = new Set<string>();
let requests: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'link-check-'));
  files.set('/pic.png', readFileSync(makeImage(join(dir, 'pic.png'), { colour: 'red', width: 32, height: 24 })));
  files.set('/voice.wav', readFileSync(makeTone(join(dir, 'voice.wav'), { seconds: 1.5 })));
  writeFileSync(join(dir, 'page.png'), '<html>not a picture</html>');
  files.set('/page.png', readFileSync(join(dir, 'page.png')));
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/head-only.png' && req.method === 'HEAD') return void res.writeHead(200).end();
    const body = files.get(req.url ?? '');
    if (!body || gone.has(req.url ?? '')) {
      res.writeHead(404, 'Not Found').end('missing');
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function checker(): LinkChecker {
  const cache = new MediaCache({ dir: join(dir, `cache-${Math.random()}`), maxBytes: 10_000_000 });
  return new LinkChecker({ cache, prober: new MediaProber(async () => FFPROBE, new ProcessRunner()) });
}

describe('LinkChecker (a real HTTP server, real ffprobe)', () => {
  it('reports kind and duration of good links, and why the others are not', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const [pic, voice, missing, page, refused] = await checker().check([
      `${origin}/pic.png`,
      `${origin}/voice.wav`,
      `${origin}/nope.mp4`,
      `${origin}/page.png`,
      `http://127.0.0.1:${closedPort}/x.png`,
    ]);
    expect(pic).toMatchObject({ ok: true, kind: 'image' });
    expect(voice).toMatchObject({ ok: true, kind: 'audio' });
    expect(voice.durationMs).toBeGreaterThan(1400);
    expect(voice.durationMs).toBeLessThan(1600);
    expect(missing).toMatchObject({ ok: false, reason: 'HTTP 404 Not Found', kind: null });
    expect(page).toMatchObject({ ok: false, reason: 'not a picture, video or sound' });
    expect(refused).toMatchObject({ ok: false, reason: 'unreachable (ECONNREFUSED)' });
  });

  it('reports a download refused after a good HEAD in plain words', async () => {
    expect(await checker().check([`${origin}/head-only.png`])).toMatchObject([{ ok: false, reason: 'HTTP 404' }]);
  });

  it('reuses a report for a while, and asks the server again when fresh', async () => {
    const links = checker();
    const url = `${origin}/voice.wav`;
    expect((await links.check([url]))[0].ok).toBe(true);
    gone.add('/voice.wav');
    requests = [];
    try {
      expect((await links.check([url]))[0].ok).toBe(true);
      expect(requests).toEqual([]);
      // The media cache still holds the file: only the reachability request notices it has gone.
      expect(await links.check([url], { fresh: true })).toMatchObject([{ ok: false, reason: 'HTTP 404 Not Found' }]);
    } finally {
      gone.delete('/voice.wav');
    }
  });

  it('never reads a local file the host does not allow', async () => {
    const cache = new MediaCache({ dir: join(dir, 'cache-local'), maxBytes: 10_000_000 });
    cache.restrictLocalFiles(() => null, 'not granted');
    const links = new LinkChecker({ cache, prober: new MediaProber(async () => FFPROBE, new ProcessRunner()) });
    expect(await links.check([`file://${join(dir, 'pic.png')}`])).toMatchObject([
      { ok: false, reason: 'not granted', kind: null },
    ]);
  });
});
