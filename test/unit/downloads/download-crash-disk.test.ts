import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadManager } from '../../../electron/services/downloads/download-manager';
import { patternBytes, startFileServer, type FileServer } from './file-server';
import { until } from '../../wait';
import { skipUnless } from '../../environment-bound';
import { queueIn } from './queue-record';

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(async () => {
  await server.close();
});

describe('downloads survive a killed process and a full disk', () => {
  it('after SIGKILL mid-download, a new manager resumes the .part and fetches again only what was not on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-kill-'));
    const body = patternBytes(3_000_000, 21);
    // The server stops after 1.5 MB until the child is dead: the kill lands mid-download however late
    // this process gets to it, and the client has had one 1 MiB block to write by then.
    let dead = false;
    server.files.set('/kill', {
      body,
      etag: '"kill"',
      throttle: 3_000_000,
      holdAfter: { bytes: 1_500_000, until: () => dead, what: 'the downloading child to be killed' },
    });
    const folder = join(dir, 'out');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/unit/downloads/fixtures/download-child.ts', dir, server.url('/kill'), folder],
      { stdio: 'ignore' },
    );
    const exited = new Promise((r) => child.once('exit', r)).then(() => (dead = true));
    const part = join(folder, 'clip.mp4.part');
    await until(
      "the killed download's .part to hold over 800 kB",
      () => existsSync(part) && statSync(part).size > 800_000,
    );
    child.kill('SIGKILL');
    await exited;
    const keptAtKill = statSync(part).size;
    expect(existsSync(join(folder, 'clip.mp4'))).toBe(false);

    const manager = new DownloadManager({ store: queueIn(dir) });
    await manager.whenIdle();
    const [entry] = manager.lookup.copies();
    expect(entry.reason).toBeNull();
    expect(entry.state).toBe('saved');
    expect(readFileSync(join(folder, 'clip.mp4')).equals(body)).toBe(true);
    const resume = server.log.filter((l) => l.path === '/kill').at(-1)!;
    expect(resume.range).toBe(`bytes=${keptAtKill}-`);
    const requests = server.log.filter((l) => l.path === '/kill');
    // Two requests: the killed one, and one from the first byte not on disk (the Range above) to the end.
    // So the only bytes sent twice are those the killed process had received and not yet written, however
    // late this busy process got to the kill (it waits for 800 kB on disk; 1.5 MB may have arrived by then).
    expect(requests).toHaveLength(2);
    expect(requests[1].bytesSent).toBe(body.length - keptAtKill);
    await manager.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  // A real full disk: a 1 MiB tmpfs (needs root and mount; this machine's test runs as root).
  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  it('a full disk pauses the queue with a message, loses nothing, and resumes after space is freed', async (context) => {
    skipUnless(context, canMount, 'root and mount, to make a 1 MiB tmpfs that fills up');
    const dir = mkdtempSync(join(tmpdir(), 'downloads-full-'));
    const mountPoint = join(dir, 'disk');
    mkdirSync(mountPoint);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]).status).toBe(0);
    const totals: (string | null)[] = [];
    const manager = new DownloadManager({
      store: queueIn(dir),
      sleep: async () => undefined,
      onTotals: (t) => void totals.push(t.pausedReason),
    });
    try {
      const body = patternBytes(2_500_000, 22);
      server.files.set('/big', { body, etag: '"big"' });
      const entry = await manager.enqueue({
        jobId: 'j',
        url: server.url('/big'),
        folder: mountPoint,
        relativeName: 'big.mp4',
        origin: 'library',
      });
      await until('the downloads to pause for lack of space', () => manager.totals().pausedReason !== null);
      expect(manager.totals().pausedReason).toMatch(/disk holding .* is full.*partial files kept/);
      await until('the download to be queued again', () => manager.get(entry.id).state === 'queued');
      expect(readdirSync(mountPoint)).toEqual(['big.mp4.part']);
      const kept = statSync(join(mountPoint, 'big.mp4.part')).size;
      expect(kept).toBeGreaterThan(500_000);

      expect(spawnSync('mount', ['-o', 'remount,size=8m', mountPoint]).status).toBe(0);
      manager.resumeAll();
      await manager.whenIdle();
      expect(manager.get(entry.id).state).toBe('saved');
      expect(readFileSync(join(mountPoint, 'big.mp4')).equals(body)).toBe(true);
      expect(server.log.filter((l) => l.path === '/big').at(-1)?.range).toMatch(/^bytes=\d+-$/);
    } finally {
      await manager.dispose();
      spawnSync('umount', [mountPoint]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
