import { existsSync } from 'node:fs';
import type { Notice } from '../../common/bridge/system';
import { setSynchronous, type RecordsDatabase } from './database';
import { IMPORTED_SUFFIX, keepAs, type OldRecordImportOptions } from './old-record-files';
import { oldRunIds, readOldRun, RUN_FOLDERS, type OldRun } from './old-runs';
import { HAS_RUN, PUT_RUN, PUT_RUN_ROW, runValues } from './sqlite-runs';

/** Rows per transaction: a few runs a commit, each run whole in one. */
const ROWS_PER_TRANSACTION = 5_000;

export interface RunsImportOptions extends OldRecordImportOptions {
  /** Tells the user of a run that could not be read: it is missing from their list until it is mended. */
  notify?: (notice: Notice) => void;
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
  const { db } = database;
  const has = db.prepare(HAS_RUN).raw();
  const putRun = db.prepare(PUT_RUN);
  const putRow = db.prepare(PUT_RUN_ROW);
  const commit = db.transaction((runs: readonly OldRun[]) => {
    for (const { kind, id, run } of runs) {
      if (has.get(kind, id) !== undefined) continue;
      putRun.run(...runValues(kind, { ...run, id }));
      run.rows.forEach((row, position) => putRow.run(kind, id, row.row, position, JSON.stringify(row)));
    }
  }).immediate;
  // Flushed: the files are renamed only after, and a power cut must not leave neither rows nor files.
  setSynchronous(db, 'FULL');
  const size = options.entriesPerTransaction ?? ROWS_PER_TRANSACTION;
  let taken = 0;
  let batch: OldRun[] = [];
  let rows = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    commit(batch);
    for (const run of batch) for (const file of run.files) if (existsSync(file)) keepAs(file, IMPORTED_SUFFIX);
    taken += rows;
    options.log?.info('old runs taken into the records database', { runs: batch.length, rows });
    options.progress?.(taken);
    batch = [];
    rows = 0;
  };
  for (const [kind, noun] of Object.entries(RUN_FOLDERS)) {
    for (const id of oldRunIds(dataDir, kind)) {
      const run = readTelling(dataDir, kind, id, noun, options);
      if (!run) continue;
      batch.push(run);
      rows += run.run.rows.length;
      if (rows >= size) flush();
    }
  }
  flush();
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
