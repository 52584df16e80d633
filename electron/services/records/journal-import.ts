import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  JOURNAL,
  parseJournalLine,
  readLines,
  setAsideLine,
  type JournalChange,
  type Reporting,
} from '../jobs/ledger-read';
import type { RecordsDatabase } from './database';
import { IMPORTED_SUFFIX, keepAs } from './old-record-files';
import { buildJobIndexes, JOB_INDEXES } from './schema';
import { jobColumns, PUT_JOB, REMOVE_JOB } from './sqlite-ledger';

/** Lines per transaction: few enough that a commit is quick, enough that fsyncs do not dominate. */
const ROWS_PER_TRANSACTION = 5_000;
/** Lines read between two pauses of importJournalInSteps while a batch fills (a few milliseconds' work). */
const LINES_PER_PAUSE = 500;

export interface ImportProgress {
  /** Journal lines (changes) taken in so far. */
  rows: number;
  /** Bytes of the journal read so far, of `totalBytes`. */
  bytes: number;
  totalBytes: number;
  done: boolean;
}

export interface ImportOptions extends Reporting {
  /** Called after each committed transaction and once at the end (a host prints it). */
  progress?: (progress: ImportProgress) => void;
  rowsPerTransaction?: number;
}

/**
 * Takes the old journal (`jobs/ledger.jsonl`) into the database, if it is still there: read a line at a
 * time (it may be larger than a string can hold), its changes replayed in order in transactions of a
 * few thousand, a job's later lines replacing its earlier ones as they always did. Only once the last
 * transaction has committed is the journal renamed to `ledger.jsonl.imported` (and the folder flushed,
 * so it cannot come back after a power cut and replay old states over newer rows). A process killed
 * half way leaves the journal where it was, and the next start replays it from its first line: the
 * replay ends in the same rows whatever was committed before, every job once (its id is the key).
 * Unreadable lines are set aside with a notice, as reading the journal always did. Returns the lines
 * taken in, or null when there was no journal.
 */
export function importJournal(database: RecordsDatabase, dataDir: string, options: ImportOptions = {}): number | null {
  const steps = importJournalInSteps(database, dataDir, options);
  for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
}

/** Where importJournalInSteps has paused: after a transaction of the journal's changes, or before an index is built. */
export type JournalImportStep = { rows: ImportProgress } | { index: { step: number; steps: number } };

/**
 * importJournal paused after each transaction it commits and before each index it builds, so a host
 * that drives it shows how far it is and gives its event loop a turn (its window, its page) meanwhile.
 */
export function* importJournalInSteps(
  database: RecordsDatabase,
  dataDir: string,
  options: ImportOptions = {},
): Generator<JournalImportStep, number | null> {
  const dir = join(dataDir, 'jobs');
  const journal = join(dir, JOURNAL);
  if (!existsSync(journal)) return null;
  const totalBytes = statSync(journal).size;
  const { db } = database;
  // Into an empty table (the first start after the update), rows go in without the indexes, which are
  // built once at the end. A start killed before then finds them missing and builds them when it ends.
  // (libsql's `pluck()` answers the whole row, an object always true: the first column is read by hand.)
  const [empty] = db.prepare('SELECT NOT EXISTS (SELECT 1 FROM jobs)').raw().get() as [number];
  if (empty === 1) for (const name of Object.keys(JOB_INDEXES)) db.exec(`DROP INDEX IF EXISTS ${name}`);
  const put = db.prepare(PUT_JOB);
  const remove = db.prepare(REMOVE_JOB);
  const commit = db.transaction((changes: JournalChange[]) => {
    for (const change of changes) {
      if ('remove' in change) remove.run(change.remove);
      else put.run(change.put.id, JSON.stringify(change.put), ...jobColumns(change.put));
    }
  }).immediate;
  const size = options.rowsPerTransaction ?? ROWS_PER_TRANSACTION;
  options.log?.info('taking the job journal into the records database', { journal, bytes: totalBytes });
  let batch: JournalChange[] = [];
  let rows = 0;
  let bytes = 0;
  const commitBatch = (): ImportProgress => {
    commit(batch);
    rows += batch.length;
    batch = [];
    const progress = { rows, bytes, totalBytes, done: false };
    options.progress?.(progress);
    return progress;
  };
  let lines = 0;
  for (const [line, read] of readLines(journal)) {
    bytes = read;
    const change = parseJournalLine(line);
    if (change) batch.push(change);
    else if (line.trim() !== '') setAsideLine(dir, line, options);
    if (batch.length >= size) yield { rows: commitBatch() };
    // Also between commits (no transaction is open while a batch is read), so a driver can pause often.
    else if (++lines % LINES_PER_PAUSE === 0) yield { rows: { rows, bytes, totalBytes, done: false } };
  }
  if (batch.length > 0) yield { rows: commitBatch() };
  for (const index of buildJobIndexes(db)) yield { index };
  const keptAs = keepAs(journal, IMPORTED_SUFFIX);
  options.progress?.({ rows, bytes: totalBytes, totalBytes, done: true });
  options.log?.info('job journal taken in', { rows, keptAs });
  return rows;
}
