// Runs as earlier versions kept them, for the import's tests: `<data folder>/<kind>/<id>.json`, a
// snapshot with the last journal number folded into it, and `<id>.rows.jsonl`, a line per row change.
import Database from 'libsql';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE } from '../../../electron/services/records/database';

export interface OldRow {
  row: number;
  state: string;
}

export interface OldRunFiles {
  kind: string;
  id: string;
  rows: number;
  createdAt?: number;
  /** The snapshot's journalSeq: lines at or below it are already in it. */
  folded?: number;
  /** Journal lines [seq, row]; `torn` appends half a line after them. */
  lines?: [number, OldRow][];
  torn?: boolean;
}

export function writeOldRun(dataDir: string, files: OldRunFiles): void {
  const dir = join(dataDir, files.kind);
  mkdirSync(dir, { recursive: true });
  const rows = Array.from({ length: files.rows }, (_, row) => ({ row, state: 'pending', text: `line ${row}` }));
  const snapshot = {
    id: files.id,
    createdAt: files.createdAt ?? 1,
    state: 'running',
    rows,
    ...(files.folded === undefined ? {} : { journalSeq: files.folded }),
  };
  writeFileSync(join(dir, `${files.id}.json`), `${JSON.stringify(snapshot)}\n`);
  const lines = (files.lines ?? []).map(
    ([seq, row]) => `${JSON.stringify({ seq, row: { ...row, text: `line ${row.row}` } })}\n`,
  );
  if (lines.length > 0 || files.torn)
    writeFileSync(
      join(dir, `${files.id}.rows.jsonl`),
      lines.join('') + (files.torn ? '{"seq":999,"row":{"row":0,"st' : ''),
    );
}

/** The run tables as SQLite holds them: [kind, id, rows in order as `row:state`]. */
export function runsInTable(dataDir: string): [string, string, string[]][] {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const runs = db.prepare('SELECT kind, id FROM runs ORDER BY kind, id').raw().all() as [string, string][];
    const rows = db.prepare('SELECT record FROM run_rows WHERE kind = ? AND run_id = ? ORDER BY position').raw();
    return runs.map(([kind, id]) => [
      kind,
      id,
      (rows.all(kind, id) as [string][]).map(([text]) => {
        const row = JSON.parse(text) as OldRow;
        return `${row.row}:${row.state}`;
      }),
    ]);
  } finally {
    db.close();
  }
}

/** Every row of the run tables, counted as SQLite holds them (a row twice would count twice). */
export function runRowCount(dataDir: string): number {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return Number((db.prepare('SELECT count(*) FROM run_rows').raw().get() as unknown[])[0]);
  } finally {
    db.close();
  }
}
