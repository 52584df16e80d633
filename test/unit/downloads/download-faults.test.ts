import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DownloadManager, type DownloadManagerOptions } from '../../../electron/services/downloads/download-manager';
import { patternBytes, startFileServer, type FileServer } from './file-server';
import { until } from '../../wait';
import { queueIn } from './queue-record';

let server: FileServer;
let dir: string;
const managers: DownloadManager[] = [];

beforeAll(async () => {
  server = await startFileServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.dispose();
  server.files.clear();
  server.log.length = 0;
  rmSync(dir, { recursive: true, force: true });
});

function manager(options: Partial<DownloadManagerOptions> = {}): DownloadManager {
  dir = dir && existsSync(dir) ? dir : mkdtempSync(join(tmpdir(), 'downloads-'));
  const made = new DownloadManager({ store: queueIn(dir), sleep: async () => undefined, ...options });
  managers.push(made);
  return made;
}

function out(): string {
  return join(dir, 'out');
}

/** The client has stored some of what came: the server may reset the connection now. */
function partHasBytes(): boolean {
  const part = join(out(), 'clip.mp4.part');
  return existsSync(part) && statSync(part).size > 0;
}

async function download(made: DownloadManager, path: string, name = 'clip.mp4') {
  const entry = await made.enqueue({
    jobId: 'job-1',
    url: server.url(path),
    folder: out(),
    relativeName: name,
    origin: 'library',
  });
  await made.whenIdle();
  return made.get(entry.id);
}

describe('download manager against a loopback server', () => {
  it('resumes with Range after the connection drops half way, fetching only the rest', async () => {
    const body = patternBytes(1_000_000);
    server.files.set('/a', { body, etag: '"v1"', dropAfter: { count: 1, bytes: 500_000, once: partHasBytes } });
    const saved = await download(manager(), '/a');
    expect(saved.state).toBe('saved');
    expect(readFileSync(join(out(), 'clip.mp4')).equals(body)).toBe(true);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(server.log[1].range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(server.log[1].ifRange).toBe('"v1"');
    expect(server.log[1].status).toBe(206);
    expect(server.log[1].bytesSent).toBe(body.length - resumedAt);
  });

  it('retries 5xx answers with backoff and then saves', async () => {
    const body = patternBytes(200_000, 2);
    server.files.set('/b', { body, etag: '"b"', failFirst: { count: 3, status: 503 } });
    const delays: number[] = [];
    const saved = await download(manager({ sleep: async (ms) => void delays.push(ms), random: () => 0.5 }), '/b');
    expect(saved.state).toBe('saved');
    expect(delays).toHaveLength(3);
    expect(delays[1]).toBeGreaterThan(delays[0]);
    expect(readFileSync(join(out(), 'clip.mp4')).equals(body)).toBe(true);
  });

  it('gives up after the last attempt with the reason and no file under the final name', async () => {
    server.files.set('/c', { body: patternBytes(1000), failFirst: { count: 99, status: 500 } });
    const failed = await download(manager({ maxAttempts: 3 }), '/c');
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/HTTP 500/);
    expect(existsSync(join(out(), 'clip.mp4'))).toBe(false);
  });

  it('never names a file that is shorter than the server announced', async () => {
    const body = patternBytes(300_000, 3);
    server.files.set('/d', {
      body,
      lastModified: 'Sun, 22 Nov 2026 10:00:00 GMT',
      shortBody: { count: 2, bytes: 100_000 },
    });
    const saved = await download(manager(), '/d');
    expect(saved.state).toBe('saved');
    expect(readFileSync(join(out(), 'clip.mp4')).equals(body)).toBe(true);
    // Two short answers, then the rest: each retry resumes from what reached the disk (206), or starts
    // again (200) when nothing had been written yet, which a loaded machine can cause.
    const statuses = server.log.map((l) => l.status);
    expect(statuses[0]).toBe(200);
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect(statuses.every((s) => s === 200 || s === 206)).toBe(true);
  });

  it('checks the length itself even when the transport reports a short body as a clean end', async () => {
    const body = patternBytes(300_000, 4);
    server.files.set('/e', { body, etag: '"e"' });
    // A proxy that swallows the early close: the body simply ends after 1000 bytes.
    const lying: typeof fetch = async (url, init) => {
      const real = await fetch(url, init);
      const bytes = Buffer.from(await real.arrayBuffer()).subarray(0, 1000);
      return new Response(bytes, { status: real.status, headers: real.headers });
    };
    const failed = await download(manager({ fetch: lying, maxAttempts: 2 }), '/e');
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/sent \d+ of the 300000 bytes/);
    expect(existsSync(join(out(), 'clip.mp4'))).toBe(false);
  });

  it('starts again when the server ignores Range, and the file is still exact', async () => {
    const body = patternBytes(600_000, 5);
    server.files.set('/f', {
      body,
      etag: '"f"',
      ignoreRange: true,
      dropAfter: { count: 1, bytes: 250_000, once: partHasBytes },
    });
    const saved = await download(manager(), '/f');
    expect(saved.state).toBe('saved');
    expect(server.log[1].status).toBe(200);
    expect(readFileSync(join(out(), 'clip.mp4')).equals(body)).toBe(true);
  });

  it('starts again when the file changed on the server since the partial download (If-Range)', async () => {
    const first = patternBytes(400_000, 6);
    const second = patternBytes(400_000, 7);
    server.files.set('/g', { body: first, etag: '"old"', dropAfter: { count: 1, bytes: 150_000, once: partHasBytes } });
    const made = manager({ sleep: async () => void server.files.set('/g', { body: second, etag: '"new"' }) });
    const saved = await download(made, '/g');
    expect(saved.state).toBe('saved');
    expect(server.log[1].ifRange).toBe('"old"');
    expect(readFileSync(join(out(), 'clip.mp4')).equals(second)).toBe(true);
  });

  it('restarts from zero when the server names no validator (a resume could mix two files)', async () => {
    const body = patternBytes(300_000, 8);
    server.files.set('/h', { body, dropAfter: { count: 1, bytes: 100_000, once: partHasBytes } });
    const saved = await download(manager(), '/h');
    expect(saved.state).toBe('saved');
    expect(server.log[1].range).toBeNull();
    expect(readFileSync(join(out(), 'clip.mp4')).equals(body)).toBe(true);
  });

  it('fails a file that is not media, removes its .part and never gives it the final name', async () => {
    server.files.set('/i', { body: patternBytes(50_000, 9), etag: '"i"' });
    const failed = await download(
      manager({
        verify: async () => {
          throw new Error('Invalid data found when processing input');
        },
      }),
      '/i',
    );
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/not readable media/);
    expect(readdirSync(out())).toEqual([]);
  });

  it('gives a taken name a numbered suffix, counting files on disk, .part files and downloads in flight', async () => {
    const body = patternBytes(100_000, 10);
    server.files.set('/j', { body, etag: '"j"', throttle: 2_000_000 });
    const made = manager();
    await import('node:fs/promises').then((fs) => fs.mkdir(out(), { recursive: true }));
    writeFileSync(join(out(), 'clip.mp4'), 'mine');
    writeFileSync(join(out(), 'clip (2).mp4.part'), 'someone else');
    const a = await made.enqueue({
      jobId: 'a',
      url: server.url('/j'),
      folder: out(),
      relativeName: 'clip.mp4',
      origin: 'library',
    });
    const b = await made.enqueue({
      jobId: 'b',
      url: server.url('/j'),
      folder: out(),
      relativeName: 'clip.mp4',
      origin: 'library',
    });
    await made.whenIdle();
    expect([made.get(a.id).relativeName, made.get(b.id).relativeName]).toEqual(['clip (3).mp4', 'clip (4).mp4']);
    expect(readFileSync(join(out(), 'clip.mp4'), 'utf8')).toBe('mine');
    expect(readFileSync(join(out(), 'clip (4).mp4')).equals(body)).toBe(true);
  });

  it('refuses a name that would leave the folder', async () => {
    server.files.set('/k', { body: patternBytes(10), etag: '"k"' });
    await expect(download(manager(), '/k', '../escape.mp4')).rejects.toThrow(/would leave the folder/);
    expect(manager().list()).toEqual([]);
    expect(existsSync(join(dir, 'escape.mp4'))).toBe(false);
  });

  it('pauses, resumes from the .part, and cancel removes the .part', async () => {
    const body = patternBytes(2_000_000, 11);
    // Held at 1.5 MB until the client lets go: still under way when it is paused, however slow the machine.
    server.files.set('/l', {
      body,
      etag: '"l"',
      throttle: 4_000_000,
      holdAfter: { bytes: 1_500_000, what: 'the download to be paused' },
    });
    server.files.set('/l2', {
      body,
      etag: '"l"',
      throttle: 4_000_000,
      holdAfter: { bytes: 1_500_000, what: 'the download to be cancelled' },
    });
    const made = manager();
    const entry = await made.enqueue({
      jobId: 'a',
      url: server.url('/l'),
      folder: out(),
      relativeName: 'clip.mp4',
      origin: 'library',
    });
    const part = join(out(), 'clip.mp4.part');
    await until('the .part to hold over 200 kB', () => existsSync(part) && statSync(part).size > 200_000);
    made.pause(entry.id);
    await until(
      'the download to be paused after one request',
      () => made.get(entry.id).state === 'paused' && server.log.length === 1,
    );
    // The aborted transfer has closed its .part once nothing runs: its size no longer moves.
    await made.whenIdle();
    const kept = statSync(part).size;
    expect(kept).toBeGreaterThan(0);
    made.resume(entry.id);
    await made.whenIdle();
    expect(made.get(entry.id).state).toBe('saved');
    expect(server.log[1].range).toBe(`bytes=${kept}-`);
    expect(readFileSync(join(out(), 'clip.mp4')).equals(body)).toBe(true);

    const other = await made.enqueue({
      jobId: 'b',
      url: server.url('/l2'),
      folder: out(),
      relativeName: 'other.mp4',
      origin: 'library',
    });
    await until('other.mp4.part to exist', () => existsSync(join(out(), 'other.mp4.part')));
    await made.cancel(other.id);
    expect(made.get(other.id).state).toBe('cancelled');
    expect(existsSync(join(out(), 'other.mp4.part'))).toBe(false);
    expect(existsSync(join(out(), 'other.mp4'))).toBe(false);
  });

  it('announces a cancelled transfer only once its .part is gone', async () => {
    server.files.set('/n', {
      body: patternBytes(2_000_000, 13),
      etag: '"n"',
      throttle: 4_000_000,
      holdAfter: { bytes: 1_500_000, what: 'the download to be cancelled' },
    });
    const partWhenAnnounced: boolean[] = [];
    const made = manager({
      onChange: (view) =>
        void (view.state === 'cancelled' && partWhenAnnounced.push(existsSync(join(out(), 'clip.mp4.part')))),
    });
    const entry = await made.enqueue({
      jobId: 'a',
      url: server.url('/n'),
      folder: out(),
      relativeName: 'clip.mp4',
      origin: 'library',
    });
    await until('the .part to have bytes', partHasBytes);
    await made.cancel(entry.id);
    expect(partWhenAnnounced).toEqual([false]);
  });

  it('keeps the queue on disk: a new manager on the same file lists and resumes it', async () => {
    const body = patternBytes(1_500_000, 12);
    server.files.set('/m', {
      body,
      etag: '"m"',
      throttle: 3_000_000,
      holdAfter: { bytes: 500_000, what: 'the first manager to let go' },
    });
    const first = manager();
    const entry = await first.enqueue({
      jobId: 'a',
      url: server.url('/m'),
      folder: out(),
      relativeName: 'clip.mp4',
      origin: 'library',
    });
    await until('the first manager to have over 100 kB', () => first.get(entry.id).bytes > 100_000);
    await first.dispose();
    managers.splice(managers.indexOf(first), 1);
    const second = manager();
    expect(['queued', 'downloading']).toContain(second.get(entry.id).state);
    await second.whenIdle();
    expect(second.get(entry.id).state).toBe('saved');
    expect(readFileSync(join(out(), 'clip.mp4')).equals(body)).toBe(true);
    expect(server.log.at(-1)?.status).toBe(206);
  });
});
