// A disk that refuses on any machine: the `.part` file's writes (direct or through the cache) fail with
// ENOSPC once a byte budget is spent, as a real file system does (what fits is written, the rest
// refused), and flushes can be made to fail with EIO. The tmpfs test in download-crash-disk.test.ts fills
// a real mount where the tester may mount one.
import { constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const disk = vi.hoisted(() => ({ folder: '', room: Number.POSITIVE_INFINITY, failFlush: false, free: 0 }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fsp = await importOriginal<typeof import('node:fs/promises')>();
  const fail = (code: string): Error => Object.assign(new Error(`${code}: refused by the test's disk`), { code });
  /** The real file, except that writes take what fits and flushes fail when the test says so. */
  const onSmallDisk = (handle: FileHandle): FileHandle =>
    new Proxy(handle, {
      get(target, prop) {
        if (prop === 'write') {
          return async (buffer: Buffer, offset: number, length: number, position: number) => {
            const fits = Math.max(0, Math.min(length, disk.room));
            disk.room -= fits;
            if (fits === 0) throw fail('ENOSPC');
            return { bytesWritten: (await target.write(buffer, offset, fits, position)).bytesWritten, buffer };
          };
        }
        if (prop === 'writev') {
          return async (buffers: Buffer[]) => {
            const all = Buffer.concat(buffers);
            const fits = all.subarray(0, Math.max(0, Math.min(all.length, disk.room)));
            disk.room -= fits.length;
            if (fits.length === 0) throw fail('ENOSPC');
            return { bytesWritten: (await target.write(fits)).bytesWritten, buffers };
          };
        }
        if ((prop === 'sync' || prop === 'datasync') && disk.failFlush) return async () => Promise.reject(fail('EIO'));
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const open = (async (...args: Parameters<typeof fsp.open>) => {
    // This disk takes writes of any length, direct or not: what fits of a direct write is rarely a
    // whole number of pages.
    if (typeof args[1] === 'number') args[1] &= ~(constants.O_DIRECT ?? 0);
    const handle = await fsp.open(...args);
    return disk.folder && String(args[0]).startsWith(disk.folder) ? onSmallDisk(handle) : handle;
  }) as typeof fsp.open;
  // The room the disk says it has (statfs), for the queue to see it freed.
  const statfs = (async (path: string, ...rest: unknown[]) => {
    const info = await (fsp.statfs as (...a: unknown[]) => Promise<{ bavail: number; bsize: number }>)(path, ...rest);
    return disk.folder && String(path).startsWith(disk.folder) ? { ...info, bavail: disk.free, bsize: 1 } : info;
  }) as typeof fsp.statfs;
  return { ...fsp, default: { ...fsp, open, statfs }, open, statfs };
});

import type { DownloadTotals } from '../../../electron/common/bridge/downloads';
import { DownloadManager } from '../../../electron/services/downloads/download-manager';
import { patternBytes, startFileServer, type FileServer } from './file-server';
import { until } from '../../wait';
import { queueIn } from './queue-record';

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
    const manager = new DownloadManager({ store: queueIn(dir), sleep: async () => undefined });
    try {
      const entry = await manager.enqueue({
        jobId: 'j',
        url: server.url('/full'),
        folder: disk.folder,
        relativeName: 'clip.mp4',
        origin: 'library',
      });
      await until(
        'the downloads to pause for lack of space with the download queued',
        () => manager.totals().pausedReason !== null && manager.get(entry.id).state === 'queued',
      );
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

describe('a full disk given room again', () => {
  it('starts its downloads again by itself and drops the banner, with no Resume pressed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-enospc-room-'));
    disk.folder = join(dir, 'out');
    disk.room = 200_000;
    disk.free = 0;
    const body = patternBytes(600_000, 33);
    server.files.set('/room', { body, etag: '"room"' });
    const totals: DownloadTotals[] = [];
    const manager = new DownloadManager({
      store: queueIn(dir),
      sleep: async () => undefined,
      onTotals: (t) => void totals.push(t),
    });
    try {
      const entry = await manager.enqueue({
        jobId: 'j',
        url: server.url('/room'),
        folder: disk.folder,
        relativeName: 'clip.mp4',
        origin: 'library',
      });
      await until('the download to wait for space', () => manager.get(entry.id).reason?.includes('is full') === true);
      // Waiting for room is not downloading: the line counts it apart and its share stays where it is.
      expect(manager.totals()).toMatchObject({ active: 0, waiting: 1, files: 1, saved: 0 });
      expect(manager.totals().fraction).toBeCloseTo(200_000 / 600_000, 2);

      // A little churn on the disk is not room: nothing starts.
      disk.free = 10_000;
      await manager.checkDrives();
      expect(manager.totals().pausedReason).toMatch(/is full/);
      expect(manager.get(entry.id).state).toBe('queued');

      // The user deletes a file: the disk has room, the queue goes on and the banner goes, unasked.
      disk.room = Number.POSITIVE_INFINITY;
      disk.free = 5_000_000;
      await manager.checkDrives();
      expect(totals.at(-1)?.pausedReason).toBeNull();
      await manager.whenIdle();
      expect(manager.get(entry.id).state).toBe('saved');
      expect(readFileSync(join(disk.folder, 'clip.mp4')).equals(body)).toBe(true);
      expect(manager.totals()).toMatchObject({ pausedReason: null, active: 0, waiting: 0, files: 0 });
    } finally {
      await manager.dispose();
      disk.folder = '';
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a full disk pauses only the downloads writing to it', () => {
  it('a download to another disk starts and saves while the full one waits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-enospc-two-'));
    // Another device than the temporary folder's (tmpfs on Linux); skipped where there is none.
    const other =
      existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(dir).dev
        ? mkdtempSync('/dev/shm/downloads-other-')
        : null;
    if (!other) return;
    disk.folder = join(dir, 'out');
    disk.room = 100_000;
    server.files.set('/full-a', { body: patternBytes(400_000, 41), etag: '"fa"' });
    server.files.set('/other-b', { body: patternBytes(300_000, 42), etag: '"ob"' });
    const manager = new DownloadManager({ store: queueIn(dir), sleep: async () => undefined });
    try {
      const full = await manager.enqueue({
        jobId: 'a',
        url: server.url('/full-a'),
        folder: disk.folder,
        relativeName: 'a.mp4',
        origin: 'library',
      });
      await until('the downloads to pause for lack of space', () => manager.totals().pausedReason !== null);
      const elsewhere = await manager.enqueue({
        jobId: 'b',
        url: server.url('/other-b'),
        folder: other,
        relativeName: 'b.mp4',
        origin: 'archive',
      });
      // Another file for the full disk waits with the reason rather than failing.
      const waiting = await manager.enqueue({
        jobId: 'c',
        url: server.url('/other-b'),
        folder: disk.folder,
        relativeName: 'c.mp4',
        origin: 'library',
      });
      await until('the download to another disk to be saved', () => manager.get(elsewhere.id).state === 'saved');
      expect(readFileSync(join(other, 'b.mp4')).equals(patternBytes(300_000, 42))).toBe(true);
      expect(manager.get(full.id).state).toBe('queued');
      await until('the waiting download to carry a reason', () => manager.get(waiting.id).reason !== null);
      expect(manager.get(waiting.id)).toMatchObject({ state: 'queued', reason: expect.stringMatching(/is full/) });
      disk.room = Number.POSITIVE_INFINITY;
      manager.resumeAll();
      await manager.whenIdle();
      expect([manager.get(full.id).state, manager.get(waiting.id).state]).toEqual(['saved', 'saved']);
    } finally {
      await manager.dispose();
      disk.folder = '';
      rmSync(dir, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('a disk that cannot flush (simulated EIO)', () => {
  it('fails the file with the reason, removes its .part and never gives it the final name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-eio-'));
    disk.folder = join(dir, 'out');
    disk.failFlush = true;
    server.files.set('/eio', { body: patternBytes(500_000, 32), etag: '"eio"' });
    const manager = new DownloadManager({ store: queueIn(dir), sleep: async () => undefined });
    try {
      const entry = await manager.enqueue({
        jobId: 'j',
        url: server.url('/eio'),
        folder: disk.folder,
        relativeName: 'clip.mp4',
        origin: 'library',
      });
      await manager.whenIdle();
      const view = manager.get(entry.id);
      expect(view.state).toBe('failed');
      expect(view.reason).toMatch(/^The file could not be written to the disk \(EIO/);
      expect(existsSync(join(disk.folder, 'clip.mp4'))).toBe(false);
      expect(existsSync(join(disk.folder, 'clip.mp4.part'))).toBe(false);
    } finally {
      await manager.dispose();
      disk.folder = '';
      disk.failFlush = false;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
