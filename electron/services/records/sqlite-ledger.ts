import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { JobRecord } from '../../common/bridge/jobs';
import type { JobPurpose } from '../../common/jobs/purpose';
import { stepOf } from '../../common/jobs/steps';
import { chargesOf, type ChargeRow, type LedgerStorage } from '../jobs/ledger';
import { pickInScope, type JobScope } from '../jobs/job-scope';
import { chargeRows, findJobTexts } from './ledger-find';
import { forEachLine, JOURNAL, parseJournalLine, readRecord, type Reporting } from '../jobs/ledger-read';
import type Database from 'libsql';
import type { RecordsDatabase, Sqlite } from './database';
import { TurnCommits } from './turn-commits';

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The columns a job row keeps beside its JSON, for the Library's indexed queries (schema.ts says what each holds). */
export function jobColumns(record: Record<string, unknown>): (string | number | null)[] {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null);
  const purpose = (record.purpose ?? {}) as Record<string, unknown>;
  const run = text(purpose.batchId) ?? text(purpose.campaignId);
  const count = (value: unknown) => (run !== null && typeof value === 'number' ? value : null);
  return [
    text(record.kind),
    text(record.phase),
    text(record.connectionId),
    text(record.projectId),
    time(record.createdAt),
    time(record.finishedAt),
    time(record.expiresAt),
    text(record.remoteId),
    text(record.summary),
    run,
    text(purpose.type),
    ...costColumns(record),
    keepable(record) ? 1 : 0,
    // A run's job only (schema step 10): its row, step, take and polls, as the run's figures read them.
    count(purpose.row),
    run === null ? null : text(purpose.step),
    count(purpose.take),
    count(record.polls),
  ];
}

/**
 * A completed job with a result link of its own, not a step of another job: what "Saved" and "Not saved"
 * ask about. Step 5 of schema.ts fills it alike from the JSON (a test checks they agree).
 */
function keepable(record: Record<string, unknown>): boolean {
  const purpose = record.purpose as JobPurpose | null | undefined;
  return record.phase === 'completed' && (record.resultUrl ?? null) !== null && stepOf({ purpose }) === null;
}

/** How totalCost() counts the job, and the credits its Cost column shows: step 2 of schema.ts fills them alike. */
function costColumns(record: Record<string, unknown>): [string, number] {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const charged = number(record.chargedCredits);
  if (charged !== null) return [record.chargeSource === 'estimate' ? 'charged-estimate' : 'charged', charged];
  if (record.phase === 'failed' && (record.remoteId ?? null) === null) return ['refused', 0];
  const estimate = number((record.costEstimate as { credits?: unknown } | null | undefined)?.credits);
  return estimate === null ? ['unknown', -1] : ['estimated', estimate];
}

/** The columns PUT_JOB writes after the id, in jobColumns' order with the record first. */
const JOB_FIELDS = [
  'record',
  'kind',
  'phase',
  'connection_id',
  'project_id',
  'created_at',
  'finished_at',
  'expires_at',
  'remote_id',
  'summary',
  'run_id',
  'purpose_type',
  'cost_state',
  'cost_credits',
  'keepable',
  'purpose_row',
  'purpose_step',
  'purpose_take',
  'polls',
];

/**
 * A job written whole, updated in place when its row is there (an upsert). INSERT OR REPLACE deleted the
 * row and inserted it again: a delete and an insert in the table and in every one of its indexes at each
 * change of a job (a poll's answer, its end), about a fifth more of a worker's time in SQLite.
 */
export const PUT_JOB = `INSERT INTO jobs (id, ${JOB_FIELDS.join(', ')})
  VALUES (?, ${JOB_FIELDS.map(() => '?').join(', ')})
  ON CONFLICT (id) DO UPDATE SET ${JOB_FIELDS.map((field) => `${field} = excluded.${field}`).join(', ')}`;
export const REMOVE_JOB = 'DELETE FROM jobs WHERE id = ?';

/**
 * The job ledger as rows of the folder's database, one per job. A `put` settles once its row is
 * committed with the WAL fsynced (synchronous = FULL), which the engine waits for before each paid
 * create. The changes made in one event-loop turn (a burst of submits, a poll round) are committed
 * together, with the other stores' changes on the connection (TurnCommits): one transaction and at
 * most one fsync for all of them rather than one each.
 *
 * Opened read-only (a command beside the studio that owns the folder), it reads the owner's last
 * commit and SQLite refuses every write. A reader that finds the old journal not yet taken in (the
 * owner has not started since the update) reads the journal over the database, as the import will.
 */
export class SqliteLedgerStorage implements LedgerStorage {
  private readonly commits: TurnCommits<Map<string, JobRecord | null>>;

  constructor(
    /** null: a reader beside a folder that has no database yet. */
    private readonly database: RecordsDatabase | null,
    /** The data folder: the old journal and the file of records set aside live in its `jobs` folder. */
    private readonly dataDir: string,
    private readonly reporting: Reporting = {},
  ) {
    const db = database && !database.readOnly ? database.db : null;
    this.commits = new TurnCommits(db, {
      empty: () => new Map(),
      durable: (values) => [...values.values()].some(mustReachDisk),
      write: (values) => {
        if (!db) throw new Error('This command only reads the job list; it cannot change it.');
        writeChanges(db, values);
      },
    });
  }

  private get reader(): boolean {
    return this.database === null || this.database.readOnly;
  }

  private get jobsDir(): string {
    return join(this.dataDir, 'jobs');
  }

  /**
   * The database to query for pages and totals, or null when it does not hold the whole ledger: a
   * folder with no database yet, or a reader beside an old journal its owner has not taken in.
   */
  queryable(): Sqlite | null {
    if (!this.database) return null;
    if (this.reader && existsSync(join(this.jobsDir, JOURNAL))) return null;
    return this.database.db;
  }

  loadAll(): JobRecord[] {
    const texts = new Map<string, string>();
    const db = this.database?.db;
    if (db)
      for (const row of db.prepare('SELECT id, record FROM jobs').iterate()) {
        const { id, record } = row as { id: string; record: string };
        texts.set(id, record);
      }
    if (this.reader) this.overlayJournal(texts);
    const records: JobRecord[] = [];
    const unreadable: string[] = [];
    for (const [id, text] of texts) {
      const record = readRecord(this.jobsDir, text, this.reporting);
      if (record) records.push(record);
      else unreadable.push(id);
    }
    // Set aside (kept in the file, the user told) and gone from the table, so it is told once.
    if (db && !this.reader && unreadable.length > 0) {
      const remove = db.prepare(REMOVE_JOB);
      db.transaction(() => unreadable.forEach((id) => remove.run(id)))();
    }
    return records;
  }

  find(scope: JobScope): JobRecord[] {
    const db = this.queryable();
    if (!db) return pickInScope(scope, this.loadAll());
    const records: JobRecord[] = [];
    for (const { record } of findJobTexts(db, scope)) {
      const read = readRecord(this.jobsDir, record, this.reporting);
      if (read) records.push(read);
    }
    return records;
  }

  charges(from: number): ChargeRow[] {
    const db = this.queryable();
    return db ? chargeRows(db, from) : chargesOf(this.loadAll(), from);
  }

  put(record: JobRecord): Promise<void> {
    return this.enqueue(record.id, record);
  }

  remove(id: string): Promise<void> {
    return this.enqueue(id, null);
  }

  /** Settles once every change made so far is committed (or has failed). */
  flush(): Promise<void> {
    return this.commits.flush();
  }

  /** Commits the changes of this turn first (every store's on the connection): none is lost with the close. */
  close(): void {
    this.commits.now();
    this.database?.close();
  }

  /** Joins the turn's changes: one transaction for all of them, on disk, or none and every caller hears why. */
  private enqueue(id: string, value: JobRecord | null): Promise<void> {
    if (!SAFE_ID.test(id)) return Promise.reject(new Error(`Invalid job id "${id}"`));
    return this.commits.add((values) => values.set(id, value));
  }

  /** The old journal's newest line of each job over what the database holds, as its import will leave it. */
  private overlayJournal(texts: Map<string, string>): void {
    const journal = join(this.jobsDir, JOURNAL);
    if (!existsSync(journal)) return;
    forEachLine(journal, (line) => {
      const change = parseJournalLine(line);
      if (!change) return;
      if ('remove' in change) texts.delete(change.remove);
      else texts.set(change.put.id, JSON.stringify(change.put));
    });
  }
}

/**
 * Whether a change makes the turn's commit flushed (turn-commits.ts). A record about to send its paid
 * create (phase `submitting`), and one that just took the create's answer (the service's id, before any poll), are in the WAL and fsynced
 * before the commit returns (FULL): a power cut must lose neither a job the service may charge nor the id
 * that finds it. Every other change (a poll's answer, a job's end) is committed without an fsync of its
 * own (NORMAL: it survives a crash of the studio, and the next FULL commit or checkpoint syncs it): after
 * a power cut such a job is polled again. An fsync per poll round held a worker's main thread about
 * 20 ms a row, with the rows' other requests waiting behind it.
 */
function mustReachDisk(record: JobRecord | null): boolean {
  if (!record) return false;
  return (
    record.phase === 'submitting' || (record.remoteId !== null && record.polls === 0 && record.finishedAt === null)
  );
}

const prepared = new WeakMap<Sqlite, JobWrites>();

/** The turn's changes of jobs, inside the turn's transaction (prepared once per connection). */
function writeChanges(db: Sqlite, values: Map<string, JobRecord | null>): void {
  let writes = prepared.get(db);
  if (!writes) {
    writes = new JobWrites(db);
    prepared.set(db, writes);
  }
  for (const [id, record] of values) {
    if (record === null) writes.remove(id);
    else writes.put(id, [JSON.stringify(record), ...jobColumns(record)]);
  }
}

/** How many shapes of update (sets of changed columns) a connection keeps prepared; a job changes few ways. */
const UPDATE_SHAPES = 64;

/**
 * A job's row written with only the columns its change touched. An upsert sets every column, and SQLite
 * then rewrites the job's entry in each of the table's twenty indexes whatever their values: a poll's
 * answer (its record and its count of polls) wrote about six times the pages of the change itself, into
 * the WAL and again at each checkpoint, in every worker and the studio. The row is read first (by its
 * key, a page already in the cache); a new job is inserted whole.
 */
class JobWrites {
  private readonly read: Database.Statement<unknown[]>;
  private readonly insert: Database.Statement<unknown[]>;
  private readonly drop: Database.Statement<unknown[]>;
  private readonly updates = new Map<string, Database.Statement<unknown[]>>();

  constructor(private readonly db: Sqlite) {
    this.read = db.prepare(`SELECT ${JOB_FIELDS.join(', ')} FROM jobs WHERE id = ?`).raw();
    this.insert = db.prepare(PUT_JOB);
    this.drop = db.prepare(REMOVE_JOB);
  }

  /** `values`: the record's JSON and its columns, in JOB_FIELDS' order. */
  put(id: string, values: (string | number | null)[]): void {
    const now = this.read.get(id) as unknown[] | undefined;
    if (!now) return void this.insert.run(id, ...values);
    const changed = JOB_FIELDS.flatMap((_, i) => (now[i] === values[i] ? [] : [i]));
    if (changed.length === 0) return;
    const update = this.update(changed);
    if (!update) return void this.insert.run(id, ...values);
    update.run(...changed.map((i) => values[i]), id);
  }

  remove(id: string): void {
    this.drop.run(id);
  }

  /** The UPDATE of these columns (null past UPDATE_SHAPES: the caller writes the whole row). */
  private update(changed: number[]): Database.Statement<unknown[]> | null {
    const key = changed.join(',');
    let update = this.updates.get(key);
    if (!update && this.updates.size < UPDATE_SHAPES) {
      update = this.db.prepare(`UPDATE jobs SET ${changed.map((i) => `${JOB_FIELDS[i]} = ?`).join(', ')} WHERE id = ?`);
      this.updates.set(key, update);
    }
    return update ?? null;
  }
}
