import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// How earlier versions kept the runs of the row engine, read as their journal read them: for the first
// start's import (runs-import.ts), and for a reader beside an owner that has not taken them in yet.

/** The folders of the data folder that held runs, and what one of their runs is called. */
export const RUN_FOLDERS: Readonly<Record<string, string>> = { campaigns: 'campaign', batches: 'batch' };

export interface OldRun {
  kind: string;
  id: string;
  run: { id: string; createdAt: number; rows: { row: number }[] };
  /** Where the run was read from: its journal first, then its snapshot (the order they are set aside in). */
  files: string[];
}

/** The ids of the runs a kind's folder still holds as files (`<id>.json`; one taken in is `.imported`). */
export function oldRunIds(dataDir: string, kind: string): string[] {
  const dir = join(dataDir, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

/** The bytes of a run kept as files (its snapshot and journal): how much of them an import has read. */
export function oldRunBytes(dataDir: string, kind: string, id: string): number {
  let bytes = 0;
  for (const name of [`${id}.json`, `${id}.rows.jsonl`]) {
    const path = join(dataDir, kind, name);
    if (existsSync(path)) bytes += statSync(path).size;
  }
  return bytes;
}

/** The snapshot of a run kept as files, or null when there is none. */
export function oldRunFile(dataDir: string, kind: string, id: string): string | null {
  const path = join(dataDir, kind, `${id}.json`);
  return existsSync(path) ? path : null;
}

/**
 * The run as its journal read it: the snapshot's rows with the journal's lines numbered above its
 * `journalSeq` over them (a row changed, or one added at the end), a torn line skipped, the file's own
 * bookkeeping left out. Throws, naming the file, when the snapshot is not a run's JSON.
 */
export function readOldRun(dataDir: string, kind: string, id: string, noun: string): OldRun {
  const path = join(dataDir, kind, `${id}.json`);
  const journal = join(dataDir, kind, `${id}.rows.jsonl`);
  let raw: { rows?: unknown; createdAt?: unknown; journalSeq?: unknown };
  try {
    if (!/^[\w-]{1,200}$/.test(id)) throw new Error(`"${id}" is not a ${noun} id`);
    raw = JSON.parse(readFileSync(path, 'utf8')) as typeof raw;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('it is not an object');
    if (raw.rows !== undefined && !Array.isArray(raw.rows)) throw new Error('its rows are not a list');
  } catch (error) {
    throw new Error(`The ${noun} record ${path} is not valid (${(error as Error).message}); it was left as it is.`, {
      cause: error,
    });
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
  return { kind, id, run: { ...fields, id, createdAt, rows }, files: [journal, path] };
}
