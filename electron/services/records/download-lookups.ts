import { sep } from 'node:path';
import type Database from 'libsql';
import type { DownloadEntry } from '../../common/bridge/downloads';
import type { QueueLookups } from '../downloads/queue-records';
import type { RecordsDatabase } from './database';
import { BACKLOG, BACKLOG_PAUSED } from './download-backlog';

// The studio's entries the manager does not hold (a copy saved, a download failed or cancelled), each
// asked of the table by an index as it is needed. Every question says its WHERE as the index does:
// SQLite takes a partial index only for a WHERE that holds the index's own.

const Q = `queue = 'studio'`;
const COPY = `state IN ('saved', 'missing', 'changed')`;
const ONE = `SELECT entry FROM downloads WHERE ${Q} AND id = ? AND state NOT IN ('${BACKLOG}', '${BACKLOG_PAUSED}')`;
/** Named, as the backlog's OF_JOBS is: left alone SQLite walked the queue by its key. */
export const JOBS = `SELECT entry FROM downloads INDEXED BY downloads_by_job
  WHERE job_id IN (SELECT value FROM json_each(?)) AND ${Q} AND state NOT IN ('${BACKLOG}', '${BACKLOG_PAUSED}')
  ORDER BY rowid`;
export const FROM_URL = `SELECT entry FROM downloads WHERE url = ? AND state = 'saved' AND ${Q} ORDER BY updated_at DESC`;
export const AT_PATH = `SELECT entry FROM downloads WHERE json_extract(entry, '$.savedPath') = ? AND ${Q}`;
export const OF_BATCH = `SELECT id, state FROM downloads WHERE json_extract(entry, '$.batchId') = ? AND ${Q}`;
/** Keyset pages over the copies' own index: each page starts where the last ended, whatever changed since. */
export const COPIES = `SELECT rowid, entry FROM downloads INDEXED BY downloads_copies
  WHERE ${Q} AND ${COPY} AND rowid > ? ORDER BY rowid LIMIT ?`;
/** The folders copies were saved in, with the drives they were on (MissingDrives), a keyset page at a time. */
export const DRIVES = `SELECT rowid, json_extract(entry, '$.folder'), json_extract(entry, '$.folderDev'),
  json_extract(entry, '$.folderVolume') FROM downloads INDEXED BY downloads_copies
  WHERE ${Q} AND ${COPY} AND rowid > ? AND json_extract(entry, '$.folderDev') IS NOT NULL ORDER BY rowid LIMIT ?`;
/**
 * The jobs with an entry no longer kept (archive.ts), from downloads_lost alone: no entry is read. Named:
 * left alone SQLite took the key's index and read every row.
 */
export const LOST_JOBS = `SELECT DISTINCT job_id FROM downloads INDEXED BY downloads_lost
  WHERE ${Q} AND state IN ('missing', 'changed', 'failed', 'cancelled')`;
/** Some links' entries (a page of a campaign's rows), by downloads_by_url; the links come as one JSON array. */
export const LINKS = `SELECT entry FROM downloads INDEXED BY downloads_by_url
  WHERE url IN (SELECT value FROM json_each(?)) AND ${Q} AND state NOT IN ('${BACKLOG}', '${BACKLOG_PAUSED}')
  ORDER BY rowid`;
/**
 * The links with a copy of one origin missing or changed, from downloads_lost (its WHERE said as the
 * index's, then narrowed): the few lost entries' rows are read, never every copy's.
 */
export const LOST_LINKS = `SELECT DISTINCT url FROM downloads INDEXED BY downloads_lost
  WHERE ${Q} AND state IN ('missing', 'changed', 'failed', 'cancelled') AND state IN ('missing', 'changed')
  AND json_extract(entry, '$.origin') = ?`;
/**
 * The copies whose path starts with a folder's (the bounds say so). Named: left alone SQLite walked
 * downloads_copies, every copy's entry, for a folder's few.
 */
export const UNDER = `SELECT entry FROM downloads INDEXED BY downloads_by_path WHERE json_extract(entry, '$.savedPath') > ?
  AND json_extract(entry, '$.savedPath') < ? AND ${Q} AND ${COPY}`;

export class SqliteDownloadLookups implements QueueLookups {
  private readonly statements = new Map<string, Database.Statement<unknown[]>>();

  constructor(
    /** null: a reader beside a folder that has no database yet (nothing is recorded). */
    private readonly database: RecordsDatabase | null,
    private readonly parse: (rows: readonly unknown[][]) => DownloadEntry[],
  ) {}

  get(id: string): DownloadEntry | null {
    return this.entries(ONE, id)[0] ?? null;
  }

  ofJobs(jobIds: readonly string[]): DownloadEntry[] {
    return jobIds.length === 0 ? [] : this.entries(JOBS, JSON.stringify(jobIds));
  }

  savedFrom(url: string): DownloadEntry[] {
    return this.entries(FROM_URL, url);
  }

  savedAt(path: string): DownloadEntry[] {
    return this.entries(AT_PATH, path);
  }

  ofBatch(batchId: string): { id: string; state: string }[] {
    return (this.rows(OF_BATCH, batchId) as [string, string][]).map(([id, state]) => ({ id, state }));
  }

  copies(afterRow: number, limit: number): { row: number; entry: DownloadEntry }[] {
    const rows = this.rows(COPIES, afterRow, limit) as [number, string][];
    // A row that does not parse is skipped (and logged); its number still moves the walk on.
    return rows.flatMap(([row, text]) => this.parse([[text]]).map((entry) => ({ row, entry })));
  }

  drives(
    afterRow: number,
    limit: number,
  ): { row: number; folder: string; folderDev: number; folderVolume: string | null }[] {
    const rows = this.rows(DRIVES, afterRow, limit) as [number, string, number, string | null][];
    return rows.map(([row, folder, folderDev, folderVolume]) => ({ row, folder, folderDev, folderVolume }));
  }

  ofLinks(urls: readonly string[]): DownloadEntry[] {
    return urls.length === 0 ? [] : this.entries(LINKS, JSON.stringify(urls));
  }

  lostLinks(origin: string): string[] {
    return (this.rows(LOST_LINKS, origin) as [string][]).map(([url]) => url);
  }

  lostJobs(): string[] {
    return (this.rows(LOST_JOBS) as [string][]).map(([jobId]) => jobId);
  }

  copiesUnder(folder: string): DownloadEntry[] {
    // Every path that starts with `folder` and its separator sorts between these two.
    const after = String.fromCharCode(sep.charCodeAt(0) + 1);
    return this.entries(UNDER, `${folder}${sep}`, `${folder}${after}`);
  }

  private entries(sql: string, ...args: unknown[]): DownloadEntry[] {
    return this.parse(this.rows(sql, ...args));
  }

  private rows(sql: string, ...args: unknown[]): unknown[][] {
    if (!this.database) return [];
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.database.db.prepare(sql)));
    return statement.raw().all(...args) as unknown[][];
  }
}
