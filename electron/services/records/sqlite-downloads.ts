import type Database from 'libsql';
import { DownloadEntry } from '../../common/bridge/downloads';
import { savedCopyAmong } from '../downloads/queue-file';
import type { QueueName, QueueReader, QueueRecord } from '../downloads/queue-records';
import type { Logger } from '../host/types';
import { openRecordsDatabase, type RecordsDatabase } from './database';
import { SqliteDownloadBacklog, stateColumn } from './download-backlog';
import { SqliteDownloadLookups } from './download-lookups';
import { TurnCommits } from './turn-commits';

const COLUMNS = '(queue, id, job_id, url, state, updated_at, entry) VALUES (?, ?, ?, ?, ?, ?, ?)';
/** An entry's row written again in place (an upsert keeps its rowid, so the queue keeps its order). */
const PUT_DOWNLOAD = `INSERT INTO downloads ${COLUMNS} ON CONFLICT (queue, id) DO UPDATE SET
  job_id = excluded.job_id, url = excluded.url, state = excluded.state, updated_at = excluded.updated_at,
  entry = excluded.entry`;
/** An entry's row unless it already has one (an import replayed after a kill). */
export const ADD_DOWNLOAD = `INSERT OR IGNORE INTO downloads ${COLUMNS}`;
const ALL = 'SELECT entry FROM downloads WHERE queue = ? ORDER BY rowid';
/**
 * A few jobs' entries, found by `downloads_by_job` (the ids come as one JSON array). Named: left to itself
 * SQLite walks the whole queue by its primary key and picks the jobs out of every row.
 */
export const OF_JOBS = `SELECT entry FROM downloads INDEXED BY downloads_by_job
  WHERE job_id IN (SELECT value FROM json_each(?)) AND queue = ? ORDER BY rowid`;
/** Some links' entries, found by `downloads_by_url` (the links come as one JSON array). */
export const OF_LINKS = `SELECT entry FROM downloads INDEXED BY downloads_by_url
  WHERE url IN (SELECT value FROM json_each(?)) AND queue = ? ORDER BY rowid`;
/**
 * What the manager holds at its start: the downloads under way (downloads_open). The backlog it takes in
 * a few at a time; an ended entry it asks for when it needs it (SqliteDownloadLookups).
 */
export const HELD = `SELECT entry FROM downloads WHERE queue = ? AND state IN ('queued', 'downloading', 'paused')
  ORDER BY rowid`;
const SAVED_FROM = `SELECT entry FROM downloads WHERE url = ? AND state = 'saved' AND queue = ?
  ORDER BY updated_at DESC`;

/** The row's values in PUT_DOWNLOAD's order (an entry not named yet is in the backlog: stateColumn). */
export function downloadValues(queue: QueueName, entry: DownloadEntry): (string | number)[] {
  return [queue, entry.id, entry.jobId, entry.url, stateColumn(entry), entry.updatedAt, JSON.stringify(entry)];
}

/** A turn's changed entries, the last change of each winning, and whether any must reach the disk. */
interface Batch {
  entries: Map<string, DownloadEntry>;
  durable: boolean;
}

/**
 * The studio's download queue as rows of the folder's database. A change writes the entries it changed;
 * the changes of one event-loop turn are committed in one transaction with the other stores' changes on
 * the connection (TurnCommits). A change that must reach the disk (an entry added, a copy saved) makes
 * that commit flushed (FULL), as the ledger's records do; a resumable detail (a transfer's validators, a
 * copy's time learnt) does not (NORMAL), which survives the process being killed. A commit that fails
 * is logged and its entries are kept for the next one: a download goes on whether or not its record
 * could be written.
 *
 * Beside the folder's owner (read-only, or no database yet) nothing is written: that process's changes
 * live in its memory, and the owner's record stays the owner's.
 */
export class SqliteDownloadQueue implements QueueRecord {
  private readonly commits: TurnCommits<Batch>;
  /** The entries of a commit that failed, written with the next one. */
  private kept = new Map<string, DownloadEntry>();
  private statement: Database.Statement<unknown[]> | null = null;
  readonly backlog: SqliteDownloadBacklog;
  readonly lookups: SqliteDownloadLookups;

  constructor(
    /** null: a reader beside a folder that has no database yet. */
    private readonly database: RecordsDatabase | null,
    private readonly log?: Logger,
  ) {
    this.backlog = new SqliteDownloadBacklog(database, (rows) => parsedRows(rows, log));
    this.lookups = new SqliteDownloadLookups(database, (rows) => parsedRows(rows, log));
    this.commits = new TurnCommits(database && !database.readOnly ? database.db : null, {
      empty: () => ({ entries: new Map(), durable: false }),
      durable: (batch) => batch.durable || this.kept.size > 0,
      write: (batch) => this.write(batch),
      failed: (batch, error) => {
        // Kept for the next commit, with what it kept already, the newer change of an entry winning.
        this.kept = new Map([...this.kept, ...batch.entries]);
        this.log?.error('download queue not written', { error: String(error) });
      },
    });
  }

  load(): DownloadEntry[] {
    if (!this.database) return [];
    return parsedRows(this.database.db.prepare(HELD).raw().all('studio') as unknown[][], this.log);
  }

  /** Beside the owner nothing is written: every change stays this process's, held in its memory. */
  unwritten(id: string): boolean {
    return !this.database || this.database.readOnly || this.kept.has(id);
  }

  /** Settles once the turn is committed; a failure is logged and its entries kept, not thrown. */
  save(changed: Iterable<DownloadEntry> = [], { durable = true }: { durable?: boolean } = {}): Promise<void> {
    return this.commits
      .add((batch) => {
        for (const entry of changed) batch.entries.set(entry.id, entry);
        batch.durable ||= durable;
      })
      .catch(() => undefined);
  }

  written(): Promise<void> {
    return this.commits.flush();
  }

  async close(): Promise<void> {
    this.commits.now();
    // Whatever a failed write kept goes in now: the connection closes after the domains.
    if (this.kept.size > 0) await this.save([], { durable: true });
  }

  /** The turn's changed entries (and those a failed commit kept, first), inside the turn's transaction. */
  private write({ entries: changed }: Batch): () => void {
    // The kept entries first, as they were asked for first; a newer change of one replaces it in place.
    const entries = new Map([...this.kept, ...changed]);
    // Beside the owner nothing is written: the change lives in that process's memory.
    if (this.database && !this.database.readOnly) {
      this.statement ??= this.database.db.prepare(PUT_DOWNLOAD);
      const put = this.statement;
      for (const entry of entries.values()) put.run(...downloadValues('studio', entry));
    }
    // Let go of the kept entries only once committed: a failed turn keeps them with its own (failed).
    return () => (this.kept = new Map());
  }
}

/** Reads both queues from the database (null: none yet, so nothing recorded). */
export class SqliteQueueReader implements QueueReader {
  private readonly statements = new Map<string, Database.Statement<unknown[]>>();

  constructor(
    private readonly database: RecordsDatabase | null,
    private readonly log?: Logger,
  ) {}

  async entries(queue: QueueName): Promise<DownloadEntry[]> {
    return this.database ? readEntries(this.database.db, queue, this.log) : [];
  }

  async savedFrom(url: string, queue: QueueName): Promise<DownloadEntry[]> {
    return this.lookup(SAVED_FROM, url, queue);
  }

  async ofJobs(jobIds: readonly string[], queue: QueueName): Promise<DownloadEntry[]> {
    return jobIds.length === 0 ? [] : this.lookup(OF_JOBS, JSON.stringify(jobIds), queue);
  }

  async ofLinks(urls: readonly string[], queue: QueueName): Promise<DownloadEntry[]> {
    return urls.length === 0 ? [] : this.lookup(OF_LINKS, JSON.stringify(urls), queue);
  }

  /** The entries one indexed question finds; none (with a log line) when the record cannot be read. */
  private lookup(sql: string, ...args: unknown[]): DownloadEntry[] {
    if (!this.database) return [];
    try {
      let statement = this.statements.get(sql);
      if (!statement) this.statements.set(sql, (statement = this.database.db.prepare(sql)));
      return parsedRows(statement.raw().all(...args) as unknown[][], this.log);
    } catch (error) {
      this.log?.warn('download records could not be read', { error: String(error) });
      return [];
    }
  }
}

/**
 * The recorded downloads of a data folder for a command that reads them beside the folder's owner (or
 * beside its own services): each read opens the database read-only on a connection of its own, reads
 * what was committed and closes it, so nothing is held open between a command's reads.
 */
export class FolderQueueReader implements QueueReader {
  constructor(
    private readonly dataDir: string,
    private readonly log?: Logger,
  ) {}

  entries(queue: QueueName): Promise<DownloadEntry[]> {
    return this.read((reader) => reader.entries(queue));
  }

  savedFrom(url: string, queue: QueueName): Promise<DownloadEntry[]> {
    return this.read((reader) => reader.savedFrom(url, queue));
  }

  ofJobs(jobIds: readonly string[], queue: QueueName): Promise<DownloadEntry[]> {
    return this.read((reader) => reader.ofJobs(jobIds, queue));
  }

  ofLinks(urls: readonly string[], queue: QueueName): Promise<DownloadEntry[]> {
    return this.read((reader) => reader.ofLinks(urls, queue));
  }

  private async read(read: (reader: QueueReader) => Promise<DownloadEntry[]>): Promise<DownloadEntry[]> {
    let database: RecordsDatabase | null;
    try {
      database = openRecordsDatabase({ dataDir: this.dataDir, readOnly: true });
    } catch (error) {
      this.log?.warn('download records could not be read', { error: String(error) });
      return [];
    }
    try {
      return await read(new SqliteQueueReader(database, this.log));
    } finally {
      database?.close();
    }
  }
}

/** A complete saved copy of a link in either queue of a data folder (a lookup by the link), read only. */
export function savedCopiesIn(dataDir: string, log?: Logger): (url: string) => Promise<string | null> {
  const reader = new FolderQueueReader(dataDir, log);
  return async (url) =>
    savedCopyAmong([...(await reader.savedFrom(url, 'studio')), ...(await reader.savedFrom(url, 'cli'))], url);
}

function readEntries(db: Database.Database, queue: QueueName, log?: Logger): DownloadEntry[] {
  return parsedRows(db.prepare(ALL).raw().all(queue) as unknown[][], log);
}

/** The rows' entries; a row that is not an entry (written by hand, or by a later version) is skipped. */
export function parsedRows(rows: readonly unknown[][], log?: Logger): DownloadEntry[] {
  const out: DownloadEntry[] = [];
  for (const [text] of rows) {
    let parsed: ReturnType<typeof DownloadEntry.safeParse>;
    try {
      parsed = DownloadEntry.safeParse(JSON.parse(String(text)));
    } catch (error) {
      log?.warn('download record skipped', { reason: String(error).slice(0, 200) });
      continue;
    }
    if (parsed.success) out.push(parsed.data);
    else log?.warn('download record skipped', { reason: parsed.error.message.slice(0, 200) });
  }
  return out;
}
