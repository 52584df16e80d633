import { closeSync, existsSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../host/types';

// What every import of an old record file (the job journal, the record of uploads, the download queues,
// the runs) does alike: how it is told to go and reports how far it is, and how the file is kept once
// taken in, or set aside unread.

/** Where an old record goes once every entry of it is in the database (kept, never deleted). */
export const IMPORTED_SUFFIX = '.imported';

export interface OldRecordImportOptions {
  log?: Logger;
  /** Called after each committed transaction with the entries taken in so far (a test stops a start here). */
  progress?: (entries: number) => void;
  entriesPerTransaction?: number;
  now?: () => Date;
}

/** How far an import of an old record is: `done` entries of `total` (both 0 while its file is read). */
export interface ImportCount {
  done: number;
  total: number;
}

/** Runs an import's steps to their end at once (the command line's start, which does not pause). */
export function runToEnd<R>(steps: Generator<unknown, R>): R {
  for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
}

/** The suffix of a file set aside unread, stamped with when (each such file is kept). */
export function unreadableSuffix(now: () => Date = () => new Date()): string {
  return `.unreadable-${now().toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Renames the file to the first free name with `suffix` (an earlier one of that name is kept), then
 * flushes the folder, so the rename cannot come undone after a power cut and the file be taken in again
 * over newer rows.
 */
export function keepAs(file: string, suffix: string): string {
  let target = `${file}${suffix}`;
  for (let n = 2; existsSync(target); n += 1) target = `${file}${suffix}.${n}`;
  renameSync(file, target);
  const fd = openSync(dirname(file), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return target;
}
