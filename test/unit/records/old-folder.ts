// A data folder as the version before the records database left it, holding every kind of old record
// the first start takes in: the job journal, the download queue with its journal, two campaigns and a
// batch with their row journals, and the record of uploads. For the tests of the hosts' stepwise start.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { queueFile } from '../../../electron/services/downloads/queue-file';
import { DATABASE_FILE } from '../../../electron/services/records/database';
import { UPLOADS_RECORD } from '../../../electron/services/records/uploads-import';
import { download, writeOldQueue } from './download-fixtures';
import { putLine, record } from './ledger-fixtures';
import { writeOldRun } from './runs-fixtures';

/** Jobs of the journal, and how many of them (every fifth) a later line moves on to completed. */
export const JOBS = 4_000;
export const CHANGED = 800;
/** Saved copies in the queue's file; its journal changes one (d-7 found missing) and adds one. */
export const COPIES = 12_000;
/** The runs: a campaign committed alone (more rows than a transaction holds), one after it, a batch. */
export const RUNS = [
  { kind: 'campaigns', id: 'c-1', rows: 5_200 },
  { kind: 'campaigns', id: 'c-2', rows: 2_500 },
  { kind: 'batches', id: 'b-1', rows: 300 },
] as const;
export const LINKS = 60;

export function writeOldFolder(dir: string): void {
  mkdirSync(join(dir, 'jobs'));
  const lines = Array.from({ length: JOBS }, (_, i) => putLine(record(`job-${i}`, 'queued', i + 1)));
  for (let i = 0; i < CHANGED; i += 1) lines.push(putLine(record(`job-${i * 5}`, 'completed', i * 5 + 1)));
  writeFileSync(join(dir, 'jobs', 'ledger.jsonl'), `${lines.join('\n')}\n`);

  const copies = Array.from({ length: COPIES }, (_, n) => download(n));
  writeOldQueue(queueFile(dir), copies, 3, [
    [3, download(7, { state: 'missing' })],
    [3, download(COPIES)],
  ]);

  // Each run's journal moves two of its rows on (done, failed) past the snapshot's folded line.
  for (const run of RUNS)
    writeOldRun(dir, {
      ...run,
      folded: 1,
      lines: [
        [2, { row: 3, state: 'done' }],
        [3, { row: run.rows - 1, state: 'failed' }],
      ],
    });

  const links = Array.from({ length: LINKS }, (_, n) => ({
    storageId: 'sandbox',
    hash: `hash-${n}`,
    key: `hash-${n}/row-${n}.png`,
    url: `https://bucket.test/hash-${n}/row-${n}.png`,
    expiresAt: 1_900_000_000_000 + n,
    sizeBytes: 1000 + n,
    fileName: `row-${n}.png`,
    uploadedAt: 1_800_000_000_000 + n,
  }));
  writeFileSync(join(dir, UPLOADS_RECORD), JSON.stringify({ version: 1, data: { entries: links } }));
}

/** What the folder's database holds of each kind, every row counted as stored (a row twice counts twice). */
export function recordsIn(dir: string) {
  const db = new Database(join(dir, DATABASE_FILE));
  try {
    const one = (sql: string): number => Number((db.prepare(sql).raw().get() as unknown[])[0]);
    const all = (sql: string): unknown[][] => db.prepare(sql).raw().all() as unknown[][];
    return {
      jobs: one('SELECT count(*) FROM jobs'),
      distinctJobs: one('SELECT count(DISTINCT id) FROM jobs'),
      completed: all("SELECT id FROM jobs WHERE phase = 'completed'").map(([id]) => Number(String(id).slice(4))),
      copies: one('SELECT count(*) FROM downloads'),
      distinctCopies: one('SELECT count(DISTINCT url) FROM downloads'),
      missing: all("SELECT id FROM downloads WHERE state = 'missing'").map(([id]) => id),
      runs: all('SELECT kind, id FROM runs ORDER BY kind, id').map(([kind, id]) => `${String(kind)}/${String(id)}`),
      rows: all('SELECT kind, run_id, count(*) FROM run_rows GROUP BY kind, run_id ORDER BY kind, run_id').map(
        ([kind, id, rows]) => `${String(kind)}/${String(id)}:${Number(rows)}`,
      ),
      rowsChanged: one("SELECT count(*) FROM run_rows WHERE json_extract(record, '$.state') IN ('done', 'failed')"),
      links: one('SELECT count(*) FROM uploads'),
    };
  } finally {
    db.close();
  }
}
