// The manager holds only the downloads under way and asks the table for every other entry: each question
// answers what it is for, and reads an index, never every row (a million jobs' folder records a third of a
// million copies). Left alone, SQLite walked the table by its key for a list of jobs (see OF_JOBS).
import { describe, expect, it, afterEach } from 'vitest';
import { openRecords } from '../../../electron/services/records/open-ledger';
import type { Sqlite } from '../../../electron/services/records/database';
import {
  AT_PATH,
  COPIES,
  DRIVES,
  FROM_URL,
  JOBS,
  LINKS,
  LOST_JOBS,
  LOST_LINKS,
  OF_BATCH,
  UNDER,
} from '../../../electron/services/records/download-lookups';
import { HELD, OF_LINKS } from '../../../electron/services/records/sqlite-downloads';
import { download } from './download-fixtures';
import { HeldDownloads } from '../../../electron/services/downloads/held-downloads';
import { RecordedDownloads } from '../../../electron/services/downloads/recorded-downloads';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const planOf = (db: Sqlite, sql: string, ...args: unknown[]): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((p) => p.detail).join(' ');

describe('the downloads the manager does not hold, asked of the table', () => {
  it('answers each question from the committed rows, never the backlog, and by an index', async () => {
    const dir = tempDir('download-lookups-');
    const { downloads, ledger } = openRecords(dir);
    const { store } = downloads;
    await store.save([
      download(1, { batchId: 'run-1', folderDev: 7, folderVolume: '7:1' }),
      download(2, { batchId: 'run-1', state: 'failed', savedPath: null }),
      download(3, { state: 'queued', savedPath: null }),
      download(4, { state: 'missing' }),
      download(5, { state: 'cancelled', jobId: 'job-1' }),
    ]);
    store.backlog.add([download(6, { state: 'queued', savedPath: null, unnamed: true, jobId: 'job-1' })]);
    const { lookups } = store;

    expect(store.load().map((e) => e.id)).toEqual(['d-3']);
    expect(lookups.get('d-2')?.state).toBe('failed');
    expect(lookups.get('d-6')).toBeNull();
    expect(lookups.ofJobs(['job-1', 'job-4']).map((e) => e.id)).toEqual(['d-1', 'd-4', 'd-5']);
    expect(lookups.savedFrom(download(1).url).map((e) => e.id)).toEqual(['d-1']);
    expect(lookups.savedFrom(download(4).url)).toEqual([]);
    expect(lookups.savedAt('/videos/r-4.mp4').map((e) => e.id)).toEqual(['d-4']);
    expect(lookups.ofBatch('run-1')).toEqual([
      { id: 'd-1', state: 'saved' },
      { id: 'd-2', state: 'failed' },
    ]);
    expect(lookups.copies(0, 10).map(({ entry }) => entry.id)).toEqual(['d-1', 'd-4']);
    const [first] = lookups.copies(0, 1);
    expect(lookups.copies(first.row, 10).map(({ entry }) => entry.id)).toEqual(['d-4']);
    expect(lookups.drives(0, 10)).toEqual([{ row: 1, folder: '/videos', folderDev: 7, folderVolume: '7:1' }]);
    expect(lookups.lostJobs().sort()).toEqual(['job-1', 'job-2', 'job-4']);
    expect(lookups.copiesUnder('/videos').map((e) => e.id)).toEqual(['d-1', 'd-4']);
    expect(lookups.copiesUnder('/vid')).toEqual([]);
    expect(await downloads.reader.ofLinks([download(2).url, download(3).url], 'studio')).toHaveLength(2);

    const db = (store as unknown as { database: { db: Sqlite } }).database.db;
    expect(planOf(db, HELD, 'studio')).toMatch(/USING INDEX downloads_open/);
    expect(planOf(db, JOBS, '["job-1"]')).toMatch(/USING INDEX downloads_by_job \(job_id=\?\)/);
    expect(planOf(db, FROM_URL, 'u')).toMatch(/USING INDEX downloads_by_url/);
    expect(planOf(db, AT_PATH, '/p')).toMatch(/USING INDEX downloads_by_path/);
    expect(planOf(db, OF_BATCH, 'run-1')).toMatch(/USING INDEX downloads_by_batch/);
    expect(planOf(db, COPIES, 0, 500)).toMatch(/USING (COVERING )?INDEX downloads_copies/);
    expect(planOf(db, DRIVES, 0, 10)).toMatch(/USING (COVERING )?INDEX downloads_copies/);
    expect(planOf(db, OF_LINKS, '["u"]', 'studio')).toMatch(/USING INDEX downloads_by_url \(url=\?\)/);
    expect(planOf(db, LOST_JOBS)).toMatch(/USING (COVERING )?INDEX downloads_lost/);
    expect(planOf(db, LINKS, '["u"]')).toMatch(/USING INDEX downloads_by_url \(url=\?\)/);
    expect(planOf(db, LOST_LINKS, 'campaign')).toMatch(/USING INDEX downloads_lost/);
    expect(planOf(db, UNDER, '/a/', '/a0')).toMatch(/USING INDEX downloads_by_path/);
    for (const sql of [
      HELD,
      JOBS,
      FROM_URL,
      AT_PATH,
      OF_BATCH,
      COPIES,
      DRIVES,
      OF_LINKS,
      LOST_JOBS,
      LINKS,
      LOST_LINKS,
      UNDER,
    ])
      expect(planOf(db, sql, ...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x'))).not.toMatch(
        /SCAN downloads(?! USING)/,
      );
    ledger.close();
  });

  it("finds a campaign's lost links from the few lost entries, and a link with an intact copy is not lost", async () => {
    const dir = tempDir('download-links-');
    const { downloads, ledger } = openRecords(dir);
    const { store } = downloads;
    const link = (n: number) => download(n).url;
    await store.save([
      // Lost alone: its one copy is missing.
      download(1, { origin: 'campaign', state: 'missing' }),
      // Lost once, then fetched again: intact.
      download(2, { origin: 'campaign', state: 'changed' }),
      download(3, { origin: 'campaign', url: link(2) }),
      // Lost, but the Library's copy, not a campaign's.
      download(4, { state: 'missing' }),
      download(5, { origin: 'campaign' }),
    ]);
    expect(store.lookups.lostLinks('campaign').sort()).toEqual([link(1), link(2)]);
    expect(store.lookups.ofLinks([link(2), link(5)]).map((e) => e.id)).toEqual(['d-2', 'd-3', 'd-5']);
    // The manager's answer settles each candidate by all its entries, and lays what it holds on top:
    // a copy found missing this moment, not yet written.
    const held = new HeldDownloads();
    held.set('d-5', download(5, { origin: 'campaign', state: 'missing' }));
    const recorded = new RecordedDownloads(held, store.lookups, (e) => ({
      ...e,
      bytesPerSecond: null,
      secondsLeft: null,
    }));
    expect([...recorded.lostLinks('campaign')].sort()).toEqual([link(1), link(5)]);
    expect(recorded.ofLinks([link(5)]).map((e) => e.state)).toEqual(['missing']);
    ledger.close();
  });
});
