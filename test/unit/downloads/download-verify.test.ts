import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadManager } from '../../../electron/services/downloads/download-manager';
import { ffprobeVerifier } from '../../../electron/services/downloads/verify';
import { resolveMediaBinary } from '../../../electron/services/system/binaries';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { ensureCorpus } from '../../media-corpus/make-corpus';
import { patternBytes, startFileServer, type FileServer } from './file-server';
import { queueIn } from './queue-record';

let server: FileServer;
let dir: string;
beforeAll(async () => {
  server = await startFileServer();
  dir = mkdtempSync(join(tmpdir(), 'downloads-verify-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('media check with the real ffprobe before the rename', () => {
  it('saves real media and refuses bytes that are not media, leaving neither a final name nor a .part', async () => {
    const wav = join(dir, 'tone.wav');
    execFileSync((await resolveMediaBinary('ffmpeg')).path, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=0.3',
      wav,
    ]);
    server.files.set('/tone.wav', { body: readFileSync(wav), etag: '"t"' });
    server.files.set('/junk.wav', { body: patternBytes(40_000, 31), etag: '"j"' });
    const prober = new MediaProber(async () => (await resolveMediaBinary('ffprobe')).path, new ProcessRunner());
    const manager = new DownloadManager({
      store: queueIn(dir),
      verify: async (path) => void (await prober.probe(path)),
    });
    const out = join(dir, 'out');
    const good = await manager.enqueue({
      jobId: 'g',
      url: server.url('/tone.wav'),
      folder: out,
      relativeName: 'tone.wav',
      origin: 'library',
    });
    const bad = await manager.enqueue({
      jobId: 'b',
      url: server.url('/junk.wav'),
      folder: out,
      relativeName: 'junk.wav',
      origin: 'library',
    });
    await manager.whenIdle();
    expect(manager.get(good.id).state).toBe('saved');
    expect(manager.get(bad.id).state).toBe('failed');
    expect(manager.get(bad.id).reason).toMatch(/not readable media/);
    expect(readdirSync(out)).toEqual(['tone.wav']);
    expect(existsSync(join(out, 'junk.wav.part'))).toBe(false);
    await manager.dispose();
  });

  it("the queue's verifier refuses a video cut short and says where its boxes end", async () => {
    const movie = readFileSync(join(ensureCorpus(), 'h264.mp4'));
    server.files.set('/whole.mp4', { body: movie, etag: '"w"' });
    server.files.set('/cut.mp4', { body: movie.subarray(0, movie.length - 300), etag: '"c"' });
    const manager = new DownloadManager({ store: queueIn(join(dir, 'movies-queue')), verify: ffprobeVerifier() });
    const out = join(dir, 'movies');
    const [whole, cut] = await Promise.all(
      ['whole.mp4', 'cut.mp4'].map((name) =>
        manager.enqueue({
          jobId: name,
          url: server.url(`/${name}`),
          folder: out,
          relativeName: name,
          origin: 'library',
        }),
      ),
    );
    await manager.whenIdle();
    expect(manager.get(whole.id).state).toBe('saved');
    expect(manager.get(cut.id).state).toBe('failed');
    expect(manager.get(cut.id).reason).toBe(
      `The downloaded file is not readable media (cannot read cut.mp4.part: the file is cut short: its boxes run to byte ${movie.length.toLocaleString('en-US')} but it has ${(movie.length - 300).toLocaleString('en-US')} bytes).`,
    );
    expect(readdirSync(out)).toEqual(['whole.mp4']);
    await manager.dispose();
  });
});
