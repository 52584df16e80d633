import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DownloadManager } from '../../../electron/services/downloads/download-manager';
import { SpeedLimit } from '../../../electron/services/downloads/speed-limit';
import { patternBytes, startFileServer } from './file-server';
import { queueIn } from './queue-record';

describe('the shared speed limit', () => {
  it('lets a quarter second of bytes pass, then books each chunk at the rate, across transfers', () => {
    let now = 0;
    let rate: number | null = 1000;
    const limit = new SpeedLimit(
      () => rate,
      () => now,
    );
    expect(limit.take(250)).toBe(0);
    // Another transfer's chunk shares the same time line.
    expect(limit.take(500)).toBe(500);
    now = 2000;
    expect(limit.take(100)).toBe(0);
    rate = null;
    expect(limit.take(1_000_000)).toBe(0);
  });
});

describe('a limited download', () => {
  it('passes every byte through the limiter, in order, and hashes what was written', async () => {
    const server = await startFileServer();
    const dir = mkdtempSync(join(tmpdir(), 'speed-limit-'));
    const body = patternBytes(600_000, 12);
    server.files.set('/limited', { body, etag: '"l"' });
    const booked: number[] = [];
    // A limit high enough not to slow the test; the booking shows every chunk went through it.
    const manager = new DownloadManager({ store: queueIn(dir), speedLimit: () => (booked.push(1), 1024 ** 3) });
    try {
      const entry = await manager.enqueue({
        jobId: 'j',
        url: server.url('/limited'),
        folder: dir,
        relativeName: 'l.mp4',
        origin: 'library',
      });
      await manager.whenIdle();
      expect(readFileSync(join(dir, 'l.mp4')).equals(body)).toBe(true);
      expect(manager.get(entry.id).sha256).toBe(createHash('sha256').update(body).digest('hex'));
      expect(booked.length).toBeGreaterThan(2);
    } finally {
      await manager.dispose();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
