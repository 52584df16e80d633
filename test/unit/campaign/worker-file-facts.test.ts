// Issue 67 item 5: a worker's row reports its saved video's size and hash. The download took the hash as
// it wrote the file, so the report takes it from the copy held in memory rather than reading and hashing
// the file again; but only while the file is as the download left it (its size and time, the copies' own
// check), so a file changed since is hashed afresh and the report never carries a stale hash.
import { createHash } from 'node:crypto';
import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DownloadEntry } from '@common/bridge/downloads';
import { fileFacts } from '../../../electron/services/campaign/campaign-worker';
import { HeldCopies } from '../../../electron/services/downloads/held-copies';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function saved(path: string, sha: string, state: DownloadEntry['state'] = 'saved'): DownloadEntry {
  const info = statSync(path);
  return {
    id: 'd1',
    jobId: 'j1',
    state,
    savedPath: path,
    bytes: info.size,
    sha256: sha,
    mtimeMs: info.mtimeMs,
  } as never;
}

describe("a worker's row file facts", () => {
  const dir = mkdtempSync(join(tmpdir(), 'file-facts-'));

  it('take the hash the download recorded while the file is as written, without reading it', async () => {
    const path = join(dir, 'as-written.mp4');
    writeFileSync(path, 'the video');
    // A recorded hash that is not the content's: taken from the record, it shows the file was not read.
    const copies = new HeldCopies(new Map([['d1', saved(path, 'recorded')]]), { savedAt: () => [] });
    expect(await fileFacts(path, (p) => copies.savedAt(p))).toEqual({ path, bytes: 9, sha256: 'recorded' });
  });

  it('hash the file again once it changed since the download, or when no saved copy is held there', async () => {
    const path = join(dir, 'changed.mp4');
    writeFileSync(path, 'the video');
    const held = new Map([['d1', saved(path, 'recorded')]]);
    const copies = new HeldCopies(held, { savedAt: () => [] });
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    expect((await fileFacts(path, (p) => copies.savedAt(p))).sha256).toBe(sha256('the video'));
    writeFileSync(path, 'another video');
    held.set('d1', saved(path, 'recorded', 'downloading'));
    expect((await fileFacts(path, (p) => copies.savedAt(p))).sha256).toBe(sha256('another video'));
    expect((await fileFacts(path)).sha256).toBe(sha256('another video'));
  });
});
