// Issue 68: the manager held every entry of its queue, so a folder of a million jobs kept a third of a
// million saved copies in the host's memory for good. It holds the downloads under way only: a saved
// copy leaves memory once written, and everything that asks for one (by job, by name, by link, the copy
// check) still finds it, in the table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadManager } from '../../../electron/services/downloads/download-manager';
import { patternBytes, startFileServer, type FileServer } from './file-server';
import { queueIn } from './queue-record';

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(async () => {
  await server.close();
});

const N = 12;

describe('a manager once its downloads are saved', () => {
  it('holds none of them, and still finds each by job, by name, by link, and in the copy check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'held-under-way-'));
    const out = join(dir, 'out');
    for (let n = 0; n < N; n += 1) server.files.set(`/r${n}.mp4`, { body: patternBytes(2000 + n, n + 1) });
    const request = (n: number) => ({
      jobId: `job-${n}`,
      url: server.url(`/r${n}.mp4`),
      folder: out,
      relativeName: `r${n}.mp4`,
      origin: 'library' as const,
    });
    let manager = new DownloadManager({ store: queueIn(dir), sleep: async () => undefined });
    await manager.enqueueAll(Array.from({ length: N }, (_, n) => request(n)));
    expect(manager.heldCount).toBe(N);
    await manager.whenIdle();
    await manager.recorded();
    expect(manager.heldCount).toBe(0);
    expect(manager.list()).toEqual([]);
    expect(manager.totals()).toMatchObject({ active: 0, open: 0 });

    for (const manage of [manager, new DownloadManager({ store: queueIn(dir), resumeQueued: false })]) {
      manager = manage;
      expect(manager.heldCount).toBe(0);
      const [saved] = manager.forJob('job-3');
      expect(saved).toMatchObject({ state: 'saved', savedPath: join(out, 'r3.mp4') });
      expect(manager.lookup.copyAt('job-3', out, 'r3.mp4')?.id).toBe(saved.id);
      expect(await manager.lookup.savedCopyOf(server.url('/r3.mp4'))).toBe(join(out, 'r3.mp4'));
      expect(manager.lookup.savedAt(join(out, 'r3.mp4')).map((d) => d.id)).toEqual([saved.id]);
      expect(manager.lookup.ofJobs(['job-1', 'job-2']).map((each) => each.map((d) => d.jobId))).toEqual([
        ['job-1'],
        ['job-2'],
      ]);
      // Looking does not hold: the answers come from the table.
      expect(manager.heldCount).toBe(0);
    }

    // The same name again in the same folder: the saved file holds it, so the new one is numbered.
    server.files.set('/again.mp4', { body: patternBytes(900, 9) });
    const again = await manager.enqueue({ ...request(3), url: server.url('/again.mp4') });
    expect(again.relativeName).toBe('r3 (2).mp4');
    await manager.whenIdle();

    // The copy check walks the table: each copy is looked at, and the one deleted is found missing.
    rmSync(join(out, 'r5.mp4'));
    const tally = { checked: 0 };
    const moved = await manager.verifySaved({ deep: false, tally });
    expect(tally.checked).toBe(N + 1);
    expect(moved.map((d) => [d.jobId, d.state])).toEqual([['job-5', 'missing']]);
    await manager.recorded();
    expect(manager.forJob('job-5')[0].state).toBe('missing');
    expect(manager.lookup.lostJobs()).toEqual(['job-5']);
    expect(manager.heldCount).toBe(0);
    await manager.dispose();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
