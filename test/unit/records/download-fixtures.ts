// Download entries and old queue files for the tests of the downloads table and its import.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import { join } from 'node:path';
import { DownloadEntry } from '../../../electron/common/bridge/downloads';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { DATABASE_FILE } from '../../../electron/services/records/database';
import { SqlJobQueries } from '../../../electron/services/records/job-queries';
import { MIGRATIONS } from '../../../electron/services/records/schema';
import { jobColumns, PUT_JOB } from '../../../electron/services/records/sqlite-ledger';

/** A saved download of job `n`'s result. */
export function download(n: number, extra: Partial<DownloadEntry> = {}): DownloadEntry {
  return DownloadEntry.parse({
    id: `d-${n}`,
    jobId: `job-${n}`,
    url: `https://results.test/r-${n}.mp4`,
    folder: '/videos',
    relativeName: `r-${n}.mp4`,
    state: 'saved',
    reason: null,
    bytes: 1000 + n,
    totalBytes: 1000 + n,
    etag: null,
    lastModified: null,
    attempts: 1,
    savedPath: `/videos/r-${n}.mp4`,
    origin: 'library',
    batchId: null,
    createdAt: 1_800_000_000_000 + n,
    updatedAt: 1_800_000_000_000 + n,
    ...extra,
  });
}

/** A journal line as earlier versions appended it: the entry tagged with its whole file's generation. */
const journalLine = (generation: number, entry: DownloadEntry): string =>
  `${JSON.stringify({ g: generation, entry })}\n`;

/** An old queue file as earlier versions wrote it, and its journal of lines (`[generation, entry]`). */
export function writeOldQueue(
  file: string,
  entries: readonly DownloadEntry[] | string,
  generation = 0,
  journal: readonly [number, DownloadEntry][] = [],
): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof entries === 'string' ? entries : JSON.stringify({ version: 1, generation, entries }));
  if (journal.length > 0) writeFileSync(`${file}.journal`, journal.map(([g, e]) => journalLine(g, e)).join(''));
}

/** The table's rows as stored (queue, id, url, the entry's state). */
export function downloadRows(dir: string): { queue: string; id: string; url: string; state: string }[] {
  const db = new Database(join(dir, DATABASE_FILE));
  try {
    return db.prepare('SELECT queue, id, url, state FROM downloads ORDER BY queue, id').all() as {
      queue: string;
      id: string;
      url: string;
      state: string;
    }[];
  } finally {
    db.close();
  }
}

/**
 * Saved copies of these jobs in the studio's queue of a database, as the download manager records them;
 * for the `unsaved` jobs, a failed download and a copy in the command line's old queue, which "Saved"
 * does not count.
 */
export function recordSavedCopies(
  db: Database.Database,
  jobIds: readonly string[],
  unsaved: readonly string[] = [],
): void {
  const put = db.prepare(
    'INSERT INTO downloads (queue, id, job_id, url, state, updated_at, entry) VALUES (?, ?, ?, ?, ?, 1, ?)',
  );
  const row = (queue: string, n: number, jobId: string, state: 'saved' | 'failed') => {
    const entry = download(n, { jobId, state });
    put.run(queue, entry.id, jobId, entry.url, state, JSON.stringify(entry));
  };
  db.transaction(() => {
    jobIds.forEach((jobId, n) => row('studio', n, jobId, 'saved'));
    unsaved.forEach((jobId, n) => {
      row('studio', jobIds.length + n, jobId, 'failed');
      row('cli', jobIds.length + n, jobId, 'saved');
    });
  })();
}

/** The job queries of an in-memory database holding these jobs and saved copies of some of them. */
export function queriesWithCopies(
  jobs: readonly JobRecord[],
  saved: readonly string[],
  now: number,
  unsaved: readonly string[] = [],
): SqlJobQueries {
  const db = new Database(':memory:');
  for (const step of MIGRATIONS) db.exec(step);
  const put = db.prepare(PUT_JOB);
  db.transaction(() => jobs.forEach((job) => put.run(job.id, JSON.stringify(job), ...jobColumns(job))))();
  recordSavedCopies(db, saved, unsaved);
  return new SqlJobQueries(db, () => now);
}
