import { existsSync } from 'node:fs';
import type { Notice } from '../../common/bridge/system';
import { setSynchronous, type RecordsDatabase } from './database';
import { IMPORTED_SUFFIX, keepAs, runToEnd, type OldRecordImportOptions } from './old-record-files';
import { oldRunBytes, oldRunIds, readOldRun, RUN_FOLDERS, type OldRun } from './old-runs';
import { HAS_RUN, PUT_RUN, PUT_RUN_ROW, runValues } from './sqlite-runs';

/** Rows per transaction: a few runs a commit, each run whole in one. */
const ROWS_PER_TRANSACTION = 5_000;
/** Rows put between two pauses of importRunsInSteps, also within a run (a few milliseconds' work). */
const ROWS_PER_PAUSE = 1_000;

export interface RunsImportOptions extends OldRecordImportOptions {
  /** Tells the user of a run that could not be read: it is missing from their list until it is mended. */
  notify?: (notice: Notice) => void;
}

/** How far importRunsInSteps is: rows put so far, and the fraction of the run files' bytes they came from. */
export interface RunsProgress {
  rows: number;
  fraction: number;
}

/**
 * Takes the runs earlier versions kept as files (`campaigns/<id>.json`, a snapshot of the run, and
 * `<id>.rows.jsonl`, a line per row change since it) into the `runs` and `run_rows` tables, each run
 * read as its journal read it: the snapshot's rows with the lines numbered above its `journalSeq` over
 * them, a torn line skipped. A run goes in whole in one transaction and is skipped when it already has
 * a row, so a start killed half way replays the files to the same rows, each run and row once; after the
 * commit its journal and then its snapshot are renamed `.imported` (kept, never deleted). A snapshot
 * that is not a run's JSON is left as it is, named in a log line and a notice, and tried again at the
 * next start (mended by hand, it then goes in). Returns the rows taken in.
 */
export function importRuns(database: RecordsDatabase, dataDir: string, options: RunsImportOptions = {}): number {
  return runToEnd(importRunsInSteps(database, dataDir, options));
}

/**
 * importRuns paused every thousand rows, so a host that drives it shows how far it is and gives its
 * event loop a turn meanwhile. It pauses inside a run's transaction too: a campaign of 100,000 rows is
 * one transaction, so that it is in whole or not at all, and would otherwise hold the loop for seconds.
 * Nothing else writes the database while a host prepares it; stopped there, the transaction is rolled
 * back (a kill leaves it uncommitted), and the next start puts the whole run in again.
 */
export function* importRunsInSteps(
  database: RecordsDatabase,
  dataDir: string,
  options: RunsImportOptions = {},
): Generator<RunsProgress, number> {
  const found = Object.entries(RUN_FOLDERS).flatMap(([kind, noun]) =>
    oldRunIds(dataDir, kind).map((id) => ({ kind, noun, id, bytes: oldRunBytes(dataDir, kind, id) })),
  );
  if (found.length === 0) return 0;
  const totalBytes = found.reduce((sum, run) => sum + run.bytes, 0);
  const { db } = database;
  const has = db.prepare(HAS_RUN).raw();
  const putRun = db.prepare(PUT_RUN);
  const putRow = db.prepare(PUT_RUN_ROW);
  // Flushed: the files are renamed only after, and a power cut must not leave neither rows nor files.
  setSynchronous(db, 'FULL');
  const size = options.entriesPerTransaction ?? ROWS_PER_TRANSACTION;
  let taken = 0;
  let readBytes = 0;
  // The runs of the open transaction, set aside once it commits.
  let held: OldRun[] = [];
  let heldRows = 0;
  const progress = (rows: number, bytes: number): RunsProgress => ({
    rows: taken + heldRows + rows,
    fraction: totalBytes > 0 ? Math.min(1, (readBytes + bytes) / totalBytes) : 1,
  });
  const commitHeld = (): void => {
    db.exec('COMMIT');
    for (const run of held) for (const file of run.files) if (existsSync(file)) keepAs(file, IMPORTED_SUFFIX);
    taken += heldRows;
    options.log?.info('old runs taken into the records database', { runs: held.length, rows: heldRows });
    options.progress?.(taken);
    held = [];
    heldRows = 0;
  };
  yield progress(0, 0);
  try {
    for (const { kind, noun, id, bytes } of found) {
      const old = readTelling(dataDir, kind, id, noun, options);
      if (old) {
        if (held.length === 0) db.exec('BEGIN IMMEDIATE');
        held.push(old);
        const { rows } = old.run;
        if (has.get(kind, id) === undefined) {
          putRun.run(...runValues(kind, { ...old.run, id }));
          for (let at = 0; at < rows.length; at += 1) {
            putRow.run(kind, id, rows[at].row, at, JSON.stringify(rows[at]));
            const put = at + 1;
            if (put % ROWS_PER_PAUSE === 0 && put < rows.length) yield progress(put, (bytes * put) / rows.length);
          }
        }
        heldRows += rows.length;
      }
      readBytes += bytes;
      if (heldRows >= size) {
        commitHeld();
        yield progress(0, 0);
      }
    }
    if (held.length > 0) commitHeld();
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
  yield { rows: taken, fraction: 1 };
  return taken;
}

/** The run kept as files; null, told in a log line and a notice, when its snapshot is not a run's JSON. */
function readTelling(
  dataDir: string,
  kind: string,
  id: string,
  noun: string,
  options: RunsImportOptions,
): OldRun | null {
  try {
    return readOldRun(dataDir, kind, id, noun);
  } catch (error) {
    const reason = (error as Error).message;
    options.log?.warn('old run not taken in', { reason });
    options.notify?.({
      level: 'warning',
      title: `A ${noun} could not be read`,
      detail: `${reason} Mend or remove the file: the studio takes it in at its next start.`,
    });
    return null;
  }
}
