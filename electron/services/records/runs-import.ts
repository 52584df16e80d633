import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Notice } from '../../common/bridge/system';
import { setSynchronous, type RecordsDatabase } from './database';
import { IMPORTED_SUFFIX, keepAs, type OldRecordImportOptions } from './old-record-files';
import { HAS_RUN, PUT_RUN, PUT_RUN_ROW, runValues } from './sqlite-runs';

/** The folders of the data folder that held runs, and what one of their runs is called. */
export const RUN_FOLDERS: Readonly<Record<string, string>> = { campaigns: 'campaign', batches: 'batch' };

/** Rows per transaction: a few runs a commit, each run whole in one. */
const ROWS_PER_TRANSACTION = 5_000;

interface OldRun {
  kind: string;
  id: string;
  run: { id: string; createdAt: number; rows: { row: number }[] };
  files: string[];
}

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
    const dir = join(dataDir, kind);
    const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
    for (const name of names.sort()) {
      const run = readOldRun(dir, kind, name.slice(0, -'.json'.length), noun, options);
      if (!run) continue;
      batch.push(run);
      rows += run.run.rows.length;
      if (rows >= size) flush();
    }
  }
  flush();
  return taken;
}

/** The run as its journal read it; null (told) when its snapshot is not a run's JSON. */
function readOldRun(dir: string, kind: string, id: string, noun: string, options: RunsImportOptions): OldRun | null {
  const path = join(dir, `${id}.json`);
  const journal = join(dir, `${id}.rows.jsonl`);
  let raw: { rows?: unknown; createdAt?: unknown; journalSeq?: unknown };
  try {
    raw = JSON.parse(readFileSync(path, 'utf8')) as typeof raw;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('it is not an object');
    if (raw.rows !== undefined && !Array.isArray(raw.rows)) throw new Error('its rows are not a list');
    if (!/^[\w-]{1,200}$/.test(id)) throw new Error(`"${id}" is not a ${noun} id`);
  } catch (error) {
    const reason = `The ${noun} record ${path} is not valid (${(error as Error).message}); it was left as it is.`;
    options.log?.warn('old run not taken in', { reason });
    options.notify?.({
      level: 'warning',
      title: `A ${noun} could not be read`,
      detail: `${reason} Mend or remove the file: the studio takes it in at its next start.`,
    });
    return null;
  }
  const folded = typeof raw.journalSeq === 'number' ? raw.journalSeq : 0;
  const rows = [...((raw.rows as { row: number }[] | undefined) ?? [])];
  const lines = existsSync(journal) ? readFileSync(journal, 'utf8') : '';
  for (const line of lines.split('\n')) {
    if (line.trim() === '') continue;
    let entry: { seq: number; row: { row: number } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      // A torn line (a kill mid-write): the row's newest change is lost, as its journal lost it.
      continue;
    }
    if (typeof entry?.seq !== 'number' || entry.seq <= folded || typeof entry.row?.row !== 'number') continue;
    const at = rows.findIndex((r) => r.row === entry.row.row);
    if (at === -1) rows.push(entry.row);
    else rows[at] = entry.row;
  }
  const { journalSeq: _folded, ...fields } = raw;
  const createdAt = typeof raw.createdAt === 'number' ? raw.createdAt : 0;
  return {
    kind,
    id,
    run: { ...fields, id, createdAt, rows },
    // The journal goes aside first: a kill between the two leaves the snapshot, whose run is then a row already.
    files: [journal, path],
  };
}
