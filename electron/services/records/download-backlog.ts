import type { DownloadEntry } from '../../common/bridge/downloads';
import type { QueueBacklog } from '../downloads/queue-records';
import { setSynchronous, type RecordsDatabase } from './database';

// The downloads of a large selection, waiting in the queue's table rather than in the manager's memory.
// A row of the backlog is an entry not named yet (`unnamed`: it never started, so it holds no file, no
// `.part` and no name); its state column says `backlog` (queued) or `backlog-paused`, so the studio's
// start leaves it where it is and the manager takes the next few in, in the order queued, as it needs.

export const BACKLOG = 'backlog';
export const BACKLOG_PAUSED = 'backlog-paused';

/** The state column of an entry's row: the backlog's own words for an entry not named yet. */
export function stateColumn(entry: DownloadEntry): string {
  if (entry.unnamed && entry.state === 'queued') return BACKLOG;
  if (entry.unnamed && entry.state === 'paused') return BACKLOG_PAUSED;
  return entry.state;
}

/** Said in every question of the backlog: SQLite takes a partial index only for a WHERE that holds its own. */
const WAITING = `state IN ('${BACKLOG}', '${BACKLOG_PAUSED}')`;
const Q = `queue = 'studio' AND ${WAITING}`;
const ADD = `INSERT INTO downloads (queue, id, job_id, url, state, updated_at, entry) VALUES ('studio', ?, ?, ?, ?, ?, ?)`;
const NEXT = `SELECT rowid, entry FROM downloads WHERE ${Q} AND state = '${BACKLOG}' AND rowid > ? ORDER BY rowid LIMIT ?`;
const COUNT = `SELECT count(*) FROM downloads WHERE ${Q} AND state = ?`;
const ONE = `SELECT entry FROM downloads WHERE ${Q} AND id = ?`;
/**
 * Named: without statistics SQLite takes the backlog's index for this too and reads every waiting row
 * for a page's thousand jobs (242 ms a page at 300,000 waiting, 9 s at 900,000), not each job's few.
 */
const OF_JOBS = `SELECT entry FROM downloads INDEXED BY downloads_by_job
  WHERE job_id IN (SELECT value FROM json_each(?)) AND ${Q}`;
/**
 * A limited number of rows a statement (QueueWindow says how many): a pause or cancel of a million
 * waiting rows never holds the thread long.
 */
const MOVE = `UPDATE downloads SET state = ?, updated_at = ?,
  entry = json_set(entry, '$.state', ?, '$.updatedAt', ?)
  WHERE rowid IN (SELECT rowid FROM downloads WHERE ${Q} AND state = ? LIMIT ?)`;
const REQUEUE = `UPDATE downloads SET state = '${BACKLOG}', updated_at = ?,
  entry = json_set(entry, '$.state', 'queued', '$.updatedAt', ?) WHERE ${Q} AND id = ? AND state = '${BACKLOG_PAUSED}'`;
const DROP = `DELETE FROM downloads WHERE rowid IN (SELECT rowid FROM downloads WHERE ${Q} LIMIT ?)`;

export class SqliteDownloadBacklog implements QueueBacklog {
  constructor(
    /** null: a reader beside a folder with no database yet (nothing waits there). */
    private readonly database: RecordsDatabase | null,
    private readonly parse: (rows: readonly unknown[][]) => DownloadEntry[],
  ) {}

  private get writable() {
    return this.database && !this.database.readOnly ? this.database.db : null;
  }

  add(entries: readonly DownloadEntry[], { flushed = true }: { flushed?: boolean } = {}): void {
    const db = this.writable;
    if (!db || entries.length === 0) return;
    const put = db.prepare(ADD);
    // Flushed: a download is recorded before anything of it is fetched, and the call answers only then.
    // Unflushed (a large selection's later pages): the WAL's fsync waited on a busy disk on the thread
    // (0.58 s of a page's 0.6 s); its rows are in the WAL, and the flushed commit of their intake (the
    // names recorded before a byte is fetched) carries them to the disk.
    setSynchronous(db, flushed ? 'FULL' : 'NORMAL');
    db.transaction(() => {
      for (const e of entries) put.run(e.id, e.jobId, e.url, stateColumn(e), e.updatedAt, JSON.stringify(e));
    }).immediate();
  }

  next(afterRow: number, limit: number): { row: number; entry: DownloadEntry }[] {
    if (!this.database) return [];
    const rows = this.database.db.prepare(NEXT).raw().all(afterRow, limit) as [number, string][];
    // A row that does not parse is skipped (and logged by parse); its number still moves the cursor on.
    return rows.flatMap(([row, text]) => this.parse([[text]]).map((entry) => ({ row, entry })));
  }

  counts(): { queued: number; paused: number } {
    if (!this.database) return { queued: 0, paused: 0 };
    const count = (state: string) => (this.database?.db.prepare(COUNT).raw().get(state) as [number])[0];
    return { queued: count(BACKLOG), paused: count(BACKLOG_PAUSED) };
  }

  get(id: string): DownloadEntry | null {
    if (!this.database) return null;
    const row = this.database.db.prepare(ONE).raw().get(id) as [string] | undefined;
    return row ? (this.parse([row])[0] ?? null) : null;
  }

  ofJobs(jobIds: readonly string[]): DownloadEntry[] {
    if (!this.database || jobIds.length === 0) return [];
    return this.parse(this.database.db.prepare(OF_JOBS).raw().all(JSON.stringify(jobIds)) as unknown[][]);
  }

  move(paused: boolean, at: number, limit: number): number {
    const db = this.writable;
    if (!db) return 0;
    const [from, to, state] = paused ? [BACKLOG, BACKLOG_PAUSED, 'paused'] : [BACKLOG_PAUSED, BACKLOG, 'queued'];
    setSynchronous(db, 'FULL');
    return Number(db.prepare(MOVE).run(to, at, state, at, from, limit).changes);
  }

  requeue(id: string, at: number): boolean {
    const db = this.writable;
    if (!db) return false;
    setSynchronous(db, 'FULL');
    return Number(db.prepare(REQUEUE).run(at, at, id).changes) > 0;
  }

  drop(limit: number): number {
    const db = this.writable;
    if (!db) return 0;
    setSynchronous(db, 'FULL');
    return Number(db.prepare(DROP).run(limit).changes);
  }
}
