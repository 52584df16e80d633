import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'libsql';
import type { Notice } from '../../common/bridge/system';
import type { Logger } from '../host/types';
import { MIGRATIONS, SCHEMA_VERSION } from './schema';

/** The folder's one database of records that grow with the work (jobs, upload links). */
export const DATABASE_FILE = 'records.db';
/** SQLite's companions of the database file in WAL mode; they move with it. */
const COMPANIONS = ['-wal', '-shm'];
/** How long a statement waits for another connection's lock (a reader's snapshot, a checkpoint) before failing. */
const BUSY_TIMEOUT_MS = 10_000;

export type Sqlite = Database.Database;

export interface RecordsDatabase {
  readonly db: Sqlite;
  readonly path: string;
  /** Opened by a process that does not own the folder: every write is refused by SQLite itself. */
  readonly readOnly: boolean;
  close(): void;
}

export interface OpenDatabaseOptions {
  dataDir: string;
  readOnly?: boolean;
  log?: Logger;
  /** Tells the user their records were set aside (their jobs leave the Library, so they must know). */
  notify?: (notice: Notice) => void;
  now?: () => Date;
}

/** A database this version cannot use, whatever is retried: it is set aside, as a corrupt record file is. */
class Unusable extends Error {}

/**
 * Opens the folder's database to write (the folder's owner: the data-folder lock makes it the only one)
 * and brings its schema up to date. A file that is not a database, is corrupt or was written by a newer
 * version is moved aside (renamed, never deleted) with a notice, and a new one is started, so the studio
 * still starts. Any other failure (a lock held too long, a full or read-only disk) is thrown: moving a
 * good database aside because it was busy would hide every job in it.
 */
export function openRecordsDatabase(options: OpenDatabaseOptions & { readOnly?: false }): RecordsDatabase;
/** Opens beside the owner to read; null when the folder has no database yet. */
export function openRecordsDatabase(options: OpenDatabaseOptions & { readOnly: true }): RecordsDatabase | null;
export function openRecordsDatabase(options: OpenDatabaseOptions): RecordsDatabase | null {
  if (options.readOnly) return openToRead(join(options.dataDir, DATABASE_FILE));
  const steps = openRecordsDatabaseInSteps(options);
  for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
}

/** A schema step about to run: the `step`th of the `steps` this database has not had yet. */
export interface SchemaStep {
  step: number;
  steps: number;
}

/**
 * openRecordsDatabase to write, paused before each schema step it runs (one statement of a step can
 * build an index over every job, which takes a while): a host that drives it can report the step and
 * give its event loop a turn between steps. Driven to its end, it returns the open database.
 */
export function* openRecordsDatabaseInSteps(options: OpenDatabaseOptions): Generator<SchemaStep, RecordsDatabase> {
  const path = join(options.dataDir, DATABASE_FILE);
  mkdirSync(options.dataDir, { recursive: true });
  try {
    return yield* openToWrite(path);
  } catch (error) {
    if (!(error instanceof Unusable) && !isDamage(error)) throw error;
    setAside(path, errorText(error), options);
    return yield* openToWrite(path);
  }
}

function* openToWrite(path: string): Generator<SchemaStep, RecordsDatabase> {
  const db = new Database(path);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // WAL: readers beside the owner see the last commit without blocking it, and a commit appends
    // to one file instead of rewriting pages twice.
    const mode = (db.prepare('PRAGMA journal_mode = WAL').raw().get() as unknown[])[0];
    if (mode !== 'wal') throw new Error(`the database stays in ${String(mode)} mode`);
    // FULL: a commit is on disk (WAL fsynced) when it returns, which a paid create's record needs
    // before its request leaves; NORMAL would survive a crash of the studio but not a power cut.
    db.exec('PRAGMA synchronous = FULL');
    yield* migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    db,
    path,
    readOnly: false,
    close: () => {
      checkpoint(db);
      db.close();
    },
  };
}

function openToRead(path: string): RecordsDatabase | null {
  if (!existsSync(path)) return null;
  // SQLite's own read-only mode (a `file:` URI): a reader cannot write by mistake, whatever it runs.
  const db = new Database(`${pathToFileURL(path).href}?mode=ro`);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const version = userVersion(db);
    if (version > SCHEMA_VERSION) throw new Error(`the records were written by a newer version of the studio`);
    // Created by its owner an instant ago, its tables not yet committed: it holds no records yet.
    if (version === 0) {
      db.close();
      return null;
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, path, readOnly: true, close: () => db.close() };
}

/** How a commit reaches the disk: FULL fsyncs the WAL before it returns, NORMAL leaves that to a later one. */
export type Synchronous = 'FULL' | 'NORMAL';
/**
 * Copies what the write-ahead log holds into the database file, without waiting for readers (PASSIVE).
 * A first start's import leaves tens of megabytes there, and the next start's first commit copied them
 * on the host's thread (a second's block at a million jobs); the owner does it as its records are
 * prepared and as it closes, where a moment costs nothing. A failure leaves the log as it was.
 */
export function checkpoint(db: Sqlite): void {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // The log stays; SQLite copies it at a later commit, as it would have.
  }
}

/** Each connection's statements kept by their SQL (and whether they answer raw rows). */
const keptStatements = new WeakMap<Sqlite, Map<string, Database.Statement<unknown[]>>>();

/** Past this many texts on a connection, the oldest kept statement is let go. */
const MOST_STATEMENTS_KEPT = 128;

/**
 * A statement of `sql` prepared once on the connection and kept, for a query asked again and again (a
 * row's jobs, a run). Prepared each time, it was compiled again, and each statement let go held its
 * native memory until a collection finalised its object. For `all`, `get` and `run` only: an iterator
 * left open would be reset by the next caller of the same text.
 */
export function keptStatement(db: Sqlite, sql: string, raw = false): Database.Statement<unknown[]> {
  let kept = keptStatements.get(db);
  if (!kept) keptStatements.set(db, (kept = new Map()));
  const key = `${raw ? 'raw' : 'rows'} ${sql}`;
  let statement = kept.get(key);
  if (!statement) {
    statement = raw ? db.prepare(sql).raw() : db.prepare(sql);
    if (kept.size >= MOST_STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, statement);
  }
  return statement;
}

/** The level each open connection is at, so a commit changes it only when it needs another (FULL at open). */
const levels = new WeakMap<Sqlite, Synchronous>();

/**
 * Sets how the connection's next commits reach the disk. Every writer of the database (the ledger, the
 * upload records) goes through here: the level is the connection's, not the writer's, so one writer
 * that set it behind another's back would leave the other committing a paid create unflushed.
 */
export function setSynchronous(db: Sqlite, level: Synchronous): void {
  if ((levels.get(db) ?? 'FULL') === level) return;
  db.exec(`PRAGMA synchronous = ${level}`);
  levels.set(db, level);
}

/** Runs the steps the database has not had, in one transaction: a crash leaves it at the old version. */
function* migrate(db: Sqlite): Generator<SchemaStep, void> {
  db.exec('BEGIN IMMEDIATE');
  try {
    const version = userVersion(db);
    if (version > SCHEMA_VERSION)
      throw new Unusable(
        `it was written by a newer version of the studio (schema ${version}, this version knows ${SCHEMA_VERSION})`,
      );
    for (let step = version; step < SCHEMA_VERSION; step += 1) {
      yield { step: step - version + 1, steps: SCHEMA_VERSION - version };
      db.exec(MIGRATIONS[step] as string);
    }
    if (version !== SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** The schema's version the database is at (schema.ts: the steps it has had). */
export function userVersion(db: Sqlite): number {
  return Number((db.prepare('PRAGMA user_version').raw().get() as unknown[])[0]);
}

/** SQLite's answers for a file that is not (or no longer) a database. */
function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code);
}

function setAside(path: string, reason: string, options: OpenDatabaseOptions): void {
  const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const moved = `${path}.unreadable-${stamp}`;
  renameSync(path, moved);
  // The companions go with it, so the new database never replays a journal of the old one.
  for (const suffix of COMPANIONS) if (existsSync(path + suffix)) renameSync(path + suffix, moved + suffix);
  options.log?.warn('records database moved aside', { reason, movedTo: moved });
  options.notify?.({
    level: 'warning',
    title: "The studio's records could not be read and were set aside",
    detail: `${reason.charAt(0).toUpperCase()}${reason.slice(1)}. The old database was kept as ${moved}; the studio starts with an empty job list. Jobs already sent are still on the service: check its dashboard.`,
  });
}

function errorText(error: unknown): string {
  if (error instanceof Unusable) return error.message;
  return `it is not a readable database (${error instanceof Error ? error.message : String(error)})`;
}
