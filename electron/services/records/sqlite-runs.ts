import { createHash } from 'node:crypto';
import type Database from 'libsql';
import type { Logger } from '../host/types';
import {
  summarise,
  type RunRowPages,
  type RunStore,
  type RunStores,
  type RunSummary,
  type StoredRun,
} from '../rows/engine/run-store';
import { rowIndex } from '../rows/engine/row-kind';
import { keptStatement, userVersion, type RecordsDatabase, type Sqlite } from './database';
import { RUN_ROW_COLUMNS, RUN_ROW_PAGES } from './schema';
import { SqlRunRowPages } from './run-row-pages';
import { oldRunFile, oldRunIds, readOldRun } from './old-runs';
import { TurnCommits } from './turn-commits';
import type { LegacyCopy } from '../downloads/adopt-copies';
import { campaignNotes } from './legacy-notes';

/** What a run's id may be: it names the run in messages and was its file's name in earlier versions. */
const SAFE_ID = /^[\w-]{1,200}$/;

export const PUT_RUN = 'INSERT OR REPLACE INTO runs (kind, id, created_at, run) VALUES (?, ?, ?, ?)';
/**
 * A row written again in place (an upsert, where a replace would delete and insert it). Its state and
 * take columns are read from the JSON written here, by SQLite, so every writer (this store, the first
 * start's import) keeps them alike without saying them twice.
 */
export const PUT_RUN_ROW = `INSERT INTO run_rows (kind, run_id, row, position, record, state, take, held, result_url)
  VALUES (?1, ?2, ?3, ?4, ?5, json_extract(?5, '$.state'), json_extract(?5, '$.take'),
    json_array_length(?5, '$.problems') > 0, json_extract(?5, '$.resultUrl'))
  ON CONFLICT (kind, run_id, row) DO UPDATE
  SET position = excluded.position, record = excluded.record, state = excluded.state, take = excluded.take,
    held = excluded.held, result_url = excluded.result_url`;
export const HAS_RUN = 'SELECT 1 FROM runs WHERE kind = ? AND id = ?';
const DROP_RUN = 'DELETE FROM runs WHERE kind = ? AND id = ?';
const DROP_ROWS = 'DELETE FROM run_rows WHERE kind = ? AND run_id = ?';
const DROP_ROW = 'DELETE FROM run_rows WHERE kind = ? AND run_id = ? AND row = ?';
const GET_RUN = 'SELECT run FROM runs WHERE kind = ? AND id = ?';
const GET_ROWS = 'SELECT row, position, record FROM run_rows WHERE kind = ? AND run_id = ? ORDER BY position, row';
const LIST = 'SELECT id FROM runs WHERE kind = ? ORDER BY created_at DESC';
const LIST_OWN = 'SELECT id, run FROM runs WHERE kind = ? ORDER BY created_at DESC';
/**
 * Every run's rows of a kind counted by state, from run_rows_states alone (schema step 11). Named: the
 * key's index (kind, run_id, row) groups by run as well, and SQLite without statistics may take it and
 * read each row's record for its state.
 */
export const COUNT_STATES = `SELECT run_id, state, count(*) FROM run_rows INDEXED BY run_rows_states
  WHERE kind = ? GROUP BY run_id, state`;

type AnyRun = StoredRun<{ row: number }>;
type Statements = Record<'putRun' | 'putRow' | 'dropRun' | 'dropRows' | 'dropRow', Database.Statement<unknown[]>>;

/** The run's own row in PUT_RUN's order: its fields without its rows, which are rows of their own. */
export function runValues(kind: string, run: AnyRun): (string | number)[] {
  return [kind, run.id, run.createdAt, JSON.stringify({ ...run, rows: undefined })];
}

/** What is asked of one run in a turn: set aside first when removed, then written whole, or row by row. */
interface Change {
  kind: string;
  id: string;
  removed: boolean;
  run: AnyRun | null;
  rows: Map<number, { row: { row: number }; position: number }>;
}

/** A turn's changes, one per run, and whether any of them must be flushed. */
interface Batch {
  changes: Map<string, Change>;
  durable: boolean;
}

/**
 * The runs of the row engine as rows of the folder's database, every kind on the one connection. A
 * run's change writes its own row; a row's change that row alone; a run written whole writes only the
 * rows that differ from what the table holds (each run's rows as last written or read are kept here as
 * text, so a balance saved on a run of 10,000 rows writes one row, not 10,000).
 *
 * The changes of one event-loop turn are committed in one transaction with the other stores' changes
 * on the connection (TurnCommits). A run written whole (made, paused, finished) makes it flushed (FULL):
 * a Pause or a new campaign must outlive a power cut. A row's change is not flushed on its own (NORMAL: kept through any crash of the studio,
 * flushed with the next FULL commit, which the ledger makes before every paid create): at worst a
 * row's newest state is lost to a power cut, and nothing paid hangs on it, since the ledger holds
 * which jobs each row made and the engine asks it before every create.
 *
 * Beside the folder's owner (read-only, or no database yet) it reads what the owner committed, and the
 * runs an earlier version kept as files that the owner has not taken in yet (as the import will read
 * them), and refuses every change: the owner's runs are the record.
 */
export class SqliteRuns implements RunStores {
  private readonly commits: TurnCommits<Batch>;
  private statements: Statements | null = null;
  /**
   * Each run's rows as the table holds them, for the runs this process wrote or read: a digest of each
   * row's `position` and JSON (rowDigest), so a run written whole again writes only the rows that changed
   * without this process keeping a second copy of every row's text.
   */
  private readonly held = new Map<string, Map<number, string>>();

  constructor(
    /** null: a reader beside a folder that has no database yet. */
    private readonly database: RecordsDatabase | null,
    private readonly log?: Logger,
    /** A reader's data folder: runs its owner has not taken in yet are read from their old files there. */
    private readonly oldRunsIn?: string,
  ) {
    this.commits = new TurnCommits(database && !database.readOnly ? database.db : null, {
      empty: () => ({ changes: new Map(), durable: false }),
      durable: (batch) => batch.durable,
      write: (batch) => this.commit(batch),
      // What the table holds of these runs is no longer certain: their next whole write rewrites every row.
      failed: (batch) => batch.changes.forEach((change) => this.held.delete(`${change.kind}\0${change.id}`)),
    });
  }

  of<Row extends { row: number }, Run extends StoredRun<Row>>(
    kind: string,
    parse: (raw: unknown, where: string) => Run,
    noun = 'run',
  ): RunStore<Row, Run> {
    return {
      get: async (id) => this.get(kind, id, parse, noun),
      list: async () => this.list(kind, parse, noun),
      summaries: async () => this.summaries(kind, parse, noun),
      putRun: (run) =>
        this.change(kind, run.id, noun, true, (c) => {
          // The run as it is now holds every row changed before it this turn.
          c.run = run;
          c.rows.clear();
        }),
      putRow: (run, row) =>
        this.change(kind, run.id, noun, false, (c) => {
          // A run to be written whole this turn takes the row with it (`run` is the run as it is now).
          if (c.run) c.run = run;
          else c.rows.set(row.row, { row, position: rowIndex(run.rows, row.row) });
        }),
      remove: (id) =>
        this.change(kind, id, noun, false, (c) => {
          c.removed = true;
          c.run = null;
          c.rows.clear();
        }),
      flush: () => this.flush(),
    };
  }

  /** Settles once every change asked for so far is committed (or has failed). */
  /** Campaign rows' copies noted by earlier versions and missing from the record of copies (legacy-notes.ts). */
  campaignNotes(): LegacyCopy[] {
    return campaignNotes(this.database);
  }

  flush(): Promise<void> {
    return this.commits.flush();
  }

  /**
   * Pages of the runs read from the database, once every change so far is committed (the engine writes
   * each change through as it makes it); null beside a folder an older studio last opened, whose rows
   * lack the columns a page is read by, or with no database.
   */
  async pages(): Promise<RunRowPages | null> {
    if (!this.database || userVersion(this.database.db) < RUN_ROW_PAGES) return null;
    await this.flush();
    return new SqlRunRowPages(this.database.db);
  }

  private get<Run>(kind: string, id: string, parse: (raw: unknown, where: string) => Run, noun: string): Run | null {
    if (!SAFE_ID.test(id)) throw new Error(`"${id}" is not a ${noun} id`);
    if (!this.database) return this.oldRun(kind, id, parse, noun);
    const { db, path } = this.database;
    const where = `${path} (${kind} "${id}")`;
    const own = keptStatement(db, GET_RUN, true).get(kind, id) as [string] | undefined;
    if (!own) return this.oldRun(kind, id, parse, noun);
    const rows = keptStatement(db, GET_ROWS, true).all(kind, id) as [number, number, string][];
    let raw: Record<string, unknown>;
    try {
      raw = { ...(JSON.parse(own[0]) as object), rows: rows.map(([, , text]) => JSON.parse(text) as unknown) };
    } catch (error) {
      throw new Error(
        `The ${noun} record ${where} is not valid JSON (${(error as Error).message}); it was left as it is.`,
        { cause: error },
      );
    }
    const run = parse(raw, where);
    if (!this.database.readOnly)
      this.held.set(`${kind}\0${id}`, new Map(rows.map(([row, position, text]) => [row, rowDigest(position, text)])));
    return run;
  }

  private list<Run extends AnyRun>(kind: string, parse: (raw: unknown, where: string) => Run, noun: string): Run[] {
    const ids = this.database ? (this.database.db.prepare(LIST).raw().all(kind) as [string][]).map(([id]) => id) : [];
    const inTable = new Set(ids);
    const old = this.oldRunsIn ? oldRunIds(this.oldRunsIn, kind).filter((id) => !inTable.has(id)) : [];
    const found: Run[] = [];
    for (const id of [...ids, ...old]) {
      try {
        const run = this.get(kind, id, parse, noun);
        if (run) found.push(run);
      } catch (error) {
        this.log?.warn(`${noun} record skipped`, { reason: (error as Error).message.slice(0, 300) });
      }
    }
    return old.length > 0 ? found.sort((a, b) => b.createdAt - a.createdAt) : found;
  }

  /**
   * The kind's runs without their rows, newest first, each with its rows counted by the database. A run
   * its kind cannot read is logged and left out, as in the list; one kept as files by an earlier version
   * and not taken in yet is read whole (a reader beside an owner that has not imported it).
   */
  private summaries<Run extends AnyRun>(
    kind: string,
    parse: (raw: unknown, where: string) => Run,
    noun: string,
  ): RunSummary<Run>[] {
    const found: RunSummary<Run>[] = [];
    const skip = (error: unknown) =>
      this.log?.warn(`${noun} record skipped`, { reason: (error as Error).message.slice(0, 300) });
    const inTable = new Set<string>();
    // A reader beside a folder an older studio last opened: its rows have no state column yet.
    if (this.database && userVersion(this.database.db) < RUN_ROW_COLUMNS)
      return this.list(kind, parse, noun).map((run) => summarise(run));
    if (this.database) {
      const { db, path } = this.database;
      const counts = new Map<string, Record<string, number>>();
      const totals = new Map<string, number>();
      for (const [id, state, n] of db.prepare(COUNT_STATES).raw().all(kind) as [string, string | null, number][]) {
        if (state !== null) counts.set(id, { ...counts.get(id), [state]: n });
        totals.set(id, (totals.get(id) ?? 0) + n);
      }
      for (const [id, text] of db.prepare(LIST_OWN).raw().all(kind) as [string, string][]) {
        inTable.add(id);
        try {
          const { rows: _rows, ...run } = parse(
            { ...(JSON.parse(text) as object), rows: [] },
            `${path} (${kind} "${id}")`,
          );
          found.push({ run, counts: counts.get(id) ?? {}, total: totals.get(id) ?? 0 });
        } catch (error) {
          skip(error);
        }
      }
    }
    const old = this.oldRunsIn ? oldRunIds(this.oldRunsIn, kind).filter((id) => !inTable.has(id)) : [];
    for (const id of old) {
      try {
        const run = this.oldRun(kind, id, parse, noun);
        if (run) found.push(summarise(run));
      } catch (error) {
        skip(error);
      }
    }
    return old.length > 0 ? found.sort((a, b) => b.run.createdAt - a.run.createdAt) : found;
  }

  /** A reader's run kept as files by an earlier version, not yet taken in by the folder's owner. */
  private oldRun<Run>(kind: string, id: string, parse: (raw: unknown, where: string) => Run, noun: string): Run | null {
    const path = this.oldRunsIn && oldRunFile(this.oldRunsIn, kind, id);
    return path ? parse(readOldRun(this.oldRunsIn as string, kind, id, noun).run, path) : null;
  }

  private change(kind: string, id: string, noun: string, durable: boolean, apply: (c: Change) => void): Promise<void> {
    if (!SAFE_ID.test(id)) return Promise.reject(new Error(`"${id}" is not a ${noun} id`));
    const key = `${kind}\0${id}`;
    return this.commits.add((batch) => {
      let change = batch.changes.get(key);
      if (!change) {
        change = { kind, id, removed: false, run: null, rows: new Map() };
        batch.changes.set(key, change);
      }
      apply(change);
      batch.durable ||= durable;
    });
  }

  /**
   * The turn's changes of runs, inside the turn's transaction (TurnCommits): all of them are committed
   * or none, and every caller hears why. What the table then holds of each run is kept once committed.
   */
  private commit(batch: Batch): () => void {
    if (!this.database || this.database.readOnly)
      throw new Error('This command only reads the runs of campaigns and batches; it cannot change them.');
    const statements = this.prepared(this.database.db);
    const written = new Map<string, Map<number, string> | null>();
    for (const change of batch.changes.values())
      written.set(`${change.kind}\0${change.id}`, this.write(statements, change));
    return () => {
      for (const [key, rows] of written) {
        if (rows) this.held.set(key, rows);
        else this.held.delete(key);
      }
    };
  }

  /** Writes one run's change; answers its rows as the table now holds them (null: not known here). */
  private write(statements: Statements, { kind, id, removed, run, rows }: Change): Map<number, string> | null {
    const key = `${kind}\0${id}`;
    let held = removed ? new Map<number, string>() : (this.held.get(key) ?? null);
    if (removed) {
      statements.dropRun.run(kind, id);
      statements.dropRows.run(kind, id);
      if (!run && rows.size === 0) return null;
    }
    if (run) {
      statements.putRun.run(...runValues(kind, run));
      // Rows the table may hold that this process never saw go first: the run as given is the whole of it.
      if (!held) statements.dropRows.run(kind, id);
      const now = new Map<number, string>();
      run.rows.forEach((row, position) => {
        const text = JSON.stringify(row);
        const digest = rowDigest(position, text);
        now.set(row.row, digest);
        if (held?.get(row.row) !== digest) statements.putRow.run(kind, id, row.row, position, text);
      });
      for (const row of held?.keys() ?? []) if (!now.has(row)) statements.dropRow.run(kind, id, row);
      held = now;
    }
    for (const { row, position } of rows.values()) {
      const text = JSON.stringify(row);
      statements.putRow.run(kind, id, row.row, position, text);
      held?.set(row.row, rowDigest(position, text));
    }
    return held;
  }

  private prepared(db: Sqlite): Statements {
    this.statements ??= {
      putRun: db.prepare(PUT_RUN),
      putRow: db.prepare(PUT_RUN_ROW),
      dropRun: db.prepare(DROP_RUN),
      dropRows: db.prepare(DROP_ROWS),
      dropRow: db.prepare(DROP_ROW),
    };
    return this.statements;
  }
}

/**
 * What the table holds of a row, in 27 characters: SHA-1 of its position and JSON. A change the digest
 * missed would leave a row unwritten, so it is a cryptographic hash, not a short checksum.
 */
function rowDigest(position: number, json: string): string {
  return createHash('sha1').update(`${position}\n`).update(json).digest('base64');
}
