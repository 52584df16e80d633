// A full disk on any machine: the `.part` file's writes fail with ENOSPC once a byte budget is spent, as
// a real file system does (what fits is written, the rest refused). The tmpfs test in
// download-crash-disk.test.ts does the same with a real mount where the tester may mount one.
import { mkdtempSync, readFileSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const disk = vi.hoisted(() => ({ folder: '', room: Number.POSITIVE_INFINITY }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  // Imported here: the factory runs before this file's own imports.
  const { Writable } = await import('node:stream');
  const noSpace = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  /** Forwards writes to the real file while the disk has room; then writes what fits and fails. */
  class SmallDisk extends Writable {
    constructor(private readonly real: WriteStream) {
      super();
    }
    override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
      const fits = chunk.subarray(0, Math.max(0, Math.min(chunk.length, disk.room)));
      disk.room -= fits.length;
      if (fits.length === 0) return done(noSpace());
      this.real.write(fits, (error) => done(error ?? (fits.length < chunk.length ? noSpace() : null)));
    }
    override _final(done: (error?: Error | null) => void): void {
      this.real.end(() => done());
    }
    override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
      this.real.end(() => done(error));
    }
  }
  const createWriteStream = ((path: string, options?: Parameters<typeof fs.createWriteStream>[1]) => {
    const real = fs.createWriteStream(path, options);
    return disk.folder && String(path).startsWith(disk.folder) ? new SmallDisk(real) : real;
  }) as typeof fs.createWriteStream;
  return { ...fs, default: { ...fs, createWriteStream }, createWriteStream };
});

import { DownloadManager } from '../../../electron/services/downloads/download-manager';
import { patternBytes, startFileServer, until, type FileServer } from './file-server';

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(() => server.close());

describe('a full disk (simulated ENOSPC)', () => {
  it('pauses the queue with a message, keeps every byte written, and resumes with Range once there is room', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-enospc-'));
    disk.folder = join(dir, 'out');
    disk.room = 700_000;
    const body = patternBytes(2_500_000, 31);
    server.files.set('/full', { body, etag: '"full"' });
    const manager = new DownloadManager({ file: join(dir, 'queue.json'), sleep: async () => undefined });
    try {
      const entry = await manager.enqueue({ jobId: 'j', url: server.url('/full'), folder: disk.folder, relativeName: 'clip.mp4', origin: 'library' });
      await until(() => manager.totals().pausedReason !== null && manager.get(entry.id).state === 'queued');
      expect(manager.totals().pausedReason).toMatch(/disk holding .* is full.*partial files kept/);
      // Not failed, nothing under the final name, and every byte the disk took is still there.
      expect(manager.get(entry.id).reason).toMatch(/is full/);
      const part = join(disk.folder, 'clip.mp4.part');
      expect(statSync(part).size).toBe(700_000);
      expect(() => statSync(join(disk.folder, 'clip.mp4'))).toThrow();

      disk.room = Number.POSITIVE_INFINITY;
      manager.resumeAll();
      await manager.whenIdle();
      expect(manager.get(entry.id).state).toBe('saved');
      expect(readFileSync(join(disk.folder, 'clip.mp4')).equals(body)).toBe(true);
      expect(server.log.filter((l) => l.path === '/full').at(-1)?.range).toBe('bytes=700000-');
    } finally {
      await manager.dispose();
      disk.folder = '';
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
