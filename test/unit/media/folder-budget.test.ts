import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderBudget, type CachedFile } from '../../../electron/services/media/folder-budget';
import { MediaCache } from '../../../electron/services/media/media-cache';
import { readdir, stat } from 'node:fs/promises';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'budget-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The folder as the budget reads it, counting the reads. */
function countedScan(reads: { n: number }) {
  return async (folder: string): Promise<CachedFile[]> => {
    reads.n++;
    const names = await readdir(folder);
    return Promise.all(
      names.map(async (name) => {
        const info = await stat(join(folder, name));
        return { path: join(folder, name), size: info.size, used: info.mtimeMs };
      }),
    );
  };
}

const body = (bytes: number) =>
  (async () =>
    new Response(new Uint8Array(bytes), { headers: { 'content-length': String(bytes) } })) as unknown as typeof fetch;

describe('FolderBudget', () => {
  it('reads a cache folder once for many downloads that stay under its cap', async () => {
    const reads = { n: 0 };
    const cache = new MediaCache({ dir, maxBytes: 1_000_000, fetch: body(100), scan: countedScan(reads) });
    for (let i = 0; i < 20; i++) await cache.localPath(`https://a/voice-${i}.mp3`);
    expect(reads.n).toBe(1);
  });

  it('evicts by its own count once past the cap, without waiting for a new read to be due', async () => {
    const reads = { n: 0 };
    const budget = new FolderBudget({ dir, maxBytes: 250, now: () => 1_000_000, scan: countedScan(reads) });
    const paths = [0, 1, 2].map((i) => join(dir, `f${i}`));
    for (const [i, path] of paths.entries()) {
      writeFileSync(path, new Uint8Array(100));
      const at = new Date(1_000_000 + i * 1000);
      utimesSync(path, at, at);
      await budget.added(100, path);
    }
    // The first addition read the folder; the third pushed the count past 250 and read it again.
    expect(reads.n).toBe(2);
    expect(paths.map((p) => existsSync(p))).toEqual([false, true, true]);
  });

  it("reads the folder again once its last read is old, counting another process's files", async () => {
    let now = 0;
    const reads = { n: 0 };
    const budget = new FolderBudget({ dir, maxBytes: 250, rescanMs: 60_000, now: () => now, scan: countedScan(reads) });
    const mine = join(dir, 'mine');
    writeFileSync(mine, new Uint8Array(100));
    await budget.added(100, mine);
    // Another process fills the folder past the cap; this one's count does not know yet.
    const theirs = [join(dir, 'a'), join(dir, 'b')];
    for (const path of theirs) writeFileSync(path, new Uint8Array(100));
    utimesSync(mine, new Date(0), new Date(0));
    const small = join(dir, 'small');
    writeFileSync(small, new Uint8Array(1));
    await budget.added(1, small);
    expect(existsSync(mine)).toBe(true);
    now = 60_000;
    await budget.added(0, small);
    expect(reads.n).toBe(2);
    expect(existsSync(mine)).toBe(false);
  });
});
