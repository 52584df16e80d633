// The download queue as a table of the folder's records database: what a start loads, what a change
// writes (only the entries it changed, a batch in one transaction), how its commits reach the disk, and
// what a reader beside the owner finds, by an indexed lookup of a link.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openRecordsDatabase, type Sqlite } from '../../../electron/services/records/database';
import { openRecords } from '../../../electron/services/records/open-ledger';
import {
  FolderQueueReader,
  OF_JOBS,
  savedCopiesIn,
  SqliteDownloadQueue,
} from '../../../electron/services/records/sqlite-downloads';
import type { Logger } from '../../../electron/services/host/types';
import { download, downloadRows } from './download-fixtures';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

/** Counts the transactions committed on this connection (the turn's COMMIT, turn-commits.ts). */
function countCommits(db: Sqlite): { commits: number } {
  const counter = { commits: 0 };
  const real = db.exec.bind(db);
  (db as { exec: unknown }).exec = (sql: string) => {
    if (sql === 'COMMIT') counter.commits += 1;
    return real(sql);
  };
  return counter;
}

/** The connection's flush level as SQLite has it: 2 FULL, 1 NORMAL. */
const level = (db: Sqlite): number => Number((db.prepare('PRAGMA synchronous').raw().get() as unknown[])[0]);

describe('the download queue in the records database', () => {
  it('loads what was recorded, in the order it was added, and writes only the entries a change names', async () => {
    const dir = tempDir('downloads-table-');
    const database = openRecordsDatabase({ dataDir: dir });
    const store = new SqliteDownloadQueue(database);
    const [a, b, c] = [download(1), download(2), download(3)];
    await store.save([a, b, c]);
    // Changed in memory but not named: the record keeps it as it was (its change is not done yet).
    b.state = 'missing';
    a.bytes = 5;
    await store.save([a]);
    database.close();

    const again = new SqliteDownloadQueue(openRecordsDatabase({ dataDir: dir }));
    // A start loads only the downloads under way; the saved copies are read a page at a time, in order.
    expect(again.load()).toEqual([]);
    const loaded = again.lookups.copies(0, 10).map(({ entry }) => entry);
    expect(loaded.map((e) => e.id)).toEqual(['d-1', 'd-2', 'd-3']);
    expect(loaded[0]?.bytes).toBe(5);
    expect(loaded[1]?.state).toBe('saved');
    expect(downloadRows(dir).every((row) => row.queue === 'studio')).toBe(true);
  });

  it('writes the changes asked for while one is under way in one transaction', async () => {
    const dir = tempDir('downloads-batch-');
    const database = openRecordsDatabase({ dataDir: dir });
    const counter = countCommits(database.db);
    const store = new SqliteDownloadQueue(database);
    const asked = Array.from({ length: 200 }, (_, n) => store.save([download(n)], { durable: n % 2 === 0 }));
    await Promise.all(asked);
    expect(counter.commits).toBe(1);
    expect(downloadRows(dir)).toHaveLength(200);
    await store.save([download(7, { state: 'missing' })]);
    expect(counter.commits).toBe(2);
    database.close();
  });

  // Fails when a failed commit drops its entries (mutation: forget `kept`), or when a save is rejected
  // for it: a download goes on whether or not its record could be written.
  it('keeps the entries of a failed commit for the next one, and logs the failure', async () => {
    const dir = tempDir('downloads-failed-');
    const database = openRecordsDatabase({ dataDir: dir });
    const lines: string[] = [];
    const log = { error: (message: string) => lines.push(message) } as unknown as Logger;
    const store = new SqliteDownloadQueue(database, log);
    database.db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON downloads BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    await expect(store.save([download(1), download(2)])).resolves.toBeUndefined();
    expect(lines).toEqual(['download queue not written']);
    expect(downloadRows(dir)).toHaveLength(0);
    database.db.exec('DROP TRIGGER refuse');
    await store.close();
    expect(downloadRows(dir).map((row) => row.id)).toEqual(['d-1', 'd-2']);
    database.close();
  });

  // Fails when the turn's commit leaves the connection's level as another writer set it (mutation: drop
  // the setSynchronous of ConnectionTurn.commit, or answer the store's `durable` false): a saved copy
  // would then be committed unflushed after an upload's NORMAL commit.
  it('flushes a change that must reach the disk (FULL), whatever another writer of the connection set', async () => {
    const dir = tempDir('downloads-flush-');
    const { uploads, downloads, ledger } = openRecords(dir);
    const db = (downloads.store as unknown as { database: { db: Sqlite } }).database.db;
    uploads.remember({
      storageId: 's3',
      hash: 'h',
      key: 'k',
      url: 'u',
      expiresAt: null,
      sizeBytes: 1,
      fileName: 'f',
      uploadedAt: 1,
    });
    await uploads.written();
    expect(level(db)).toBe(1);
    await downloads.store.save([download(1)]);
    expect(level(db)).toBe(2);
    // A resumable detail (a transfer's validators) is not worth an fsync: NORMAL survives a kill.
    await downloads.store.save([download(1, { etag: '"e"' })], { durable: false });
    expect(level(db)).toBe(1);
    await downloads.store.save([download(2)]);
    expect(level(db)).toBe(2);
    ledger.close();
  });

  it('beside the owner reads what it committed, writes nothing, and looks a copy up by its link through an index', async () => {
    const dir = tempDir('downloads-reader-');
    const owner = openRecords(dir);
    const path = join(dir, 'r-1.mp4');
    writeFileSync(path, Buffer.alloc(1001));
    await owner.downloads.store.save([download(1, { savedPath: path }), download(2)]);

    const reader = openRecords(dir, { readOnly: true });
    expect(reader.downloads.store.lookups.copies(0, 10).map(({ entry }) => entry.id)).toEqual(['d-1', 'd-2']);
    await reader.downloads.store.save([download(3)]);
    await reader.downloads.store.close();
    expect(downloadRows(dir).map((r) => r.id)).toEqual(['d-1', 'd-2']);
    expect((await reader.downloads.reader.savedFrom(download(1).url, 'studio')).map((e) => e.id)).toEqual(['d-1']);
    expect(await reader.downloads.reader.savedFrom(download(1).url, 'cli')).toEqual([]);

    expect(await savedCopiesIn(dir)(download(1).url)).toBe(path);
    // On the disk at another size: not the copy that was saved.
    expect(await savedCopiesIn(dir)(download(2).url)).toBeNull();
    expect((await new FolderQueueReader(dir).entries('studio')).map((e) => e.id)).toEqual(['d-1', 'd-2']);

    const db = (owner.downloads.store as unknown as { database: { db: Sqlite } }).database.db;
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT entry FROM downloads WHERE url = ? AND state = 'saved' AND queue = ?`)
      .all('x', 'studio') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX downloads_by_url/);
    reader.ledger.close();
    owner.ledger.close();
  });

  it('reads the entries of a few jobs by job, through an index, never the whole record of copies', async () => {
    const dir = tempDir('downloads-of-jobs-');
    const owner = openRecords(dir);
    const second = download(2, { id: 'd-2b', createdAt: download(2).createdAt + 5 });
    await owner.downloads.store.save([download(1), download(2), download(3), second]);

    const reader = new FolderQueueReader(dir);
    const found = await reader.ofJobs(['job-2', 'job-3', 'job-none'], 'studio');
    expect(found.map((e) => e.id)).toEqual(['d-2', 'd-3', 'd-2b']);
    expect(await reader.ofJobs(['job-2'], 'cli')).toEqual([]);
    expect(await reader.ofJobs([], 'studio')).toEqual([]);

    const db = (owner.downloads.store as unknown as { database: { db: Sqlite } }).database.db;
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${OF_JOBS}`).all('["job-2"]', 'studio') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX downloads_by_job \(job_id=\?\)/);
    owner.ledger.close();
  });

  it('finds nothing in a folder with no database yet, and never makes one', async () => {
    const dir = tempDir('downloads-none-');
    expect(await savedCopiesIn(dir)('https://results.test/x.mp4')).toBeNull();
    expect(await new FolderQueueReader(dir).entries('cli')).toEqual([]);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(false);
  });
});
