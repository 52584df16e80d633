// A start adopts the copies earlier versions noted in their campaign rows alone. The database finds
// those rows (a row saved by this version has its copy recorded already): no campaign is read whole
// into the host at each start, however many rows its campaigns hold.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openRecords } from '../../../electron/services/records/open-ledger';
import type { Sqlite } from '../../../electron/services/records/database';
import { CAMPAIGN_NOTES } from '../../../electron/services/records/legacy-notes';
import { PUT_RUN, PUT_RUN_ROW, runValues } from '../../../electron/services/records/sqlite-runs';
import { download } from './download-fixtures';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const link = (n: number) => `https://results.test/row-${n}.mp4`;
const row = (n: number, savedAt: number | null) =>
  JSON.stringify({ row: n, state: 'done', take: 0, fileName: `${n}.mp4`, resultUrl: link(n), savedAt });

describe('the copies earlier versions noted in campaign rows', () => {
  it('are the saved rows whose link has no campaign copy recorded, found by the database', async () => {
    const dir = tempDir('legacy-notes-');
    const { downloads, runs, ledger } = openRecords(dir);
    const db = (runs as unknown as { database: { db: Sqlite } }).database.db;
    const run = { id: 'c1', createdAt: 1, outDir: '/out/spring', rows: [] };
    db.prepare(PUT_RUN).run(...runValues('campaigns', run));
    // Row 0: noted by an earlier version alone. Row 1: saved by this version (its copy recorded).
    // Row 2: never saved. Row 3: the Library saved its link, not the campaign.
    for (const [n, savedAt] of [
      [0, 5],
      [1, 6],
      [2, null],
      [3, 7],
    ] as const)
      db.prepare(PUT_RUN_ROW).run('campaigns', 'c1', n, n, row(n, savedAt));
    await downloads.store.save([
      download(1, { url: link(1), origin: 'campaign' }),
      download(3, { url: link(3), origin: 'library' }),
    ]);
    await downloads.store.written();

    expect(runs.campaignNotes()).toEqual([
      { url: link(0), path: join('/out/spring', '0.mp4'), savedBy: 'campaign', savedAt: 5 },
      { url: link(3), path: join('/out/spring', '3.mp4'), savedBy: 'campaign', savedAt: 7 },
    ]);
    // Each row's link is looked up by its index, never by a walk of every copy.
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${CAMPAIGN_NOTES}`).all() as { detail: string }[]).map(
      (p) => p.detail,
    );
    expect(plan.join(' ')).toMatch(/USING INDEX downloads_by_url \(url=\?\)/);
    expect(plan.join(' ')).not.toMatch(/SCAN d\b/);
    ledger.close();
  });
});
