import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UploadEntry } from '../storage/upload-records';
import { setSynchronous, type RecordsDatabase } from './database';
import {
  IMPORTED_SUFFIX,
  keepAs,
  runToEnd,
  unreadableSuffix,
  type ImportCount,
  type OldRecordImportOptions,
} from './old-record-files';
import { PUT_UPLOAD, uploadValues } from './sqlite-uploads';

/** The record store the uploader kept before (`uploadsSpec`, a conf / electron-store file in the data folder). */
export const UPLOADS_RECORD = 'uploads.json';
/** Entries per transaction: a large record goes in a few commits, each quick. */
const ENTRIES_PER_TRANSACTION = 5_000;

/** The file as the record store wrote it: `{ version: 1, data: { entries } }` (`{}` before its first write). */
const OldRecord = z.union([
  z.object({ version: z.literal(1), data: z.object({ entries: z.array(z.unknown()) }) }),
  z.object({}).strict(),
]);

/**
 * Takes the old record of uploads (`uploads.json`) into the database's `uploads` table, if it is still
 * there, then renames it `uploads.json.imported` (kept, never deleted). Its entries go in newest first,
 * and an entry whose bytes and storage already have a row is skipped: so a start killed half way, the
 * file still in place, replays it from the top on the next start to the same rows, each entry once,
 * and a row written since (a newer link) is never put back to an older one. A file that cannot be read
 * as the record (not JSON, another shape, a newer version) is renamed aside with a log line: losing it
 * costs uploads again, never the start. Returns the entries taken in, or null when there was no file.
 */
export function importUploadsRecord(
  database: RecordsDatabase,
  dataDir: string,
  options: OldRecordImportOptions = {},
): number | null {
  return runToEnd(importUploadsInSteps(database, dataDir, options));
}

/**
 * importUploadsRecord paused before it reads the file and after each transaction it commits, so a host
 * that drives it shows how far it is and gives its event loop a turn meanwhile.
 */
export function* importUploadsInSteps(
  database: RecordsDatabase,
  dataDir: string,
  options: OldRecordImportOptions = {},
): Generator<ImportCount, number | null> {
  const file = join(dataDir, UPLOADS_RECORD);
  if (!existsSync(file)) return null;
  yield { done: 0, total: 0 };
  let entries: unknown[];
  try {
    const parsed = OldRecord.parse(JSON.parse(readFileSync(file, 'utf8')));
    entries = 'data' in parsed ? parsed.data.entries : [];
  } catch (error) {
    const movedTo = keepAs(file, unreadableSuffix(options.now));
    options.log?.warn('old record of uploads unreadable, set aside: files will be uploaded again', {
      reason: error instanceof z.ZodError ? 'not the record of uploads' : String(error),
      movedTo,
    });
    return 0;
  }
  const { db } = database;
  const put = db.prepare(PUT_UPLOAD.replace('INSERT OR REPLACE', 'INSERT OR IGNORE'));
  const commit = db.transaction((batch: UploadEntry[]) => {
    for (const entry of batch) put.run(...uploadValues(entry));
  }).immediate;
  // Flushed: the file is renamed only after, and a power cut must not leave neither the rows nor the file.
  setSynchronous(db, 'FULL');
  const size = options.entriesPerTransaction ?? ENTRIES_PER_TRANSACTION;
  let taken = 0;
  let skipped = 0;
  let batch: UploadEntry[] = [];
  // Newest first: the record appended each new entry, so of two of the same bytes the later one wins.
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = UploadEntry.safeParse(entries[i]);
    if (entry.success) batch.push(entry.data);
    else skipped += 1;
    if (batch.length >= size || (i === 0 && batch.length > 0)) {
      commit(batch);
      taken += batch.length;
      batch = [];
      options.progress?.(taken);
      yield { done: entries.length - i, total: entries.length };
    }
  }
  const keptAs = keepAs(file, IMPORTED_SUFFIX);
  options.log?.info('old record of uploads taken into the records database', { entries: taken, skipped, keptAs });
  return taken;
}
