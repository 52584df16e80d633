import { existsSync, readFileSync } from 'node:fs';
import type { DownloadEntry } from '../../common/bridge/downloads';
import { cliQueueFile, journalOf, parseQueue, queueFile } from '../downloads/queue-file';
import type { QueueName } from '../downloads/queue-records';
import { setSynchronous, type RecordsDatabase } from './database';
import {
  IMPORTED_SUFFIX,
  keepAs,
  runToEnd,
  unreadableSuffix,
  type ImportCount,
  type OldRecordImportOptions,
} from './old-record-files';
import { ADD_DOWNLOAD, downloadValues } from './sqlite-downloads';

/** Entries per transaction: a large queue goes in a few commits, each quick. */
const ENTRIES_PER_TRANSACTION = 5_000;

/**
 * Takes the old download queues (the studio's `downloads/queue.json` and the command line's
 * `downloads/cli-queue.json`, each with its journal) into the `downloads` table, then renames them
 * `.imported` (kept, never deleted). The queue is read as its own store read it (the whole file with
 * its journal's lines of the same generation), and an entry whose row is already there is skipped: a
 * start killed half way finds the files still in place and replays them to the same rows, each entry
 * once. The journal is renamed before its file, so a kill between the two leaves the file alone, whose
 * entries are then all rows already. A queue that cannot be read is set aside with a log line: its
 * copies are then unknown to the studio, which still starts. Returns the entries taken in.
 */
export function importDownloadQueues(
  database: RecordsDatabase,
  dataDir: string,
  options: OldRecordImportOptions = {},
): number {
  return runToEnd(importDownloadQueuesInSteps(database, dataDir, options));
}

/**
 * importDownloadQueues paused before it reads the files (a queue of a few hundred thousand copies takes
 * seconds to parse) and after each transaction it commits, so a host that drives it shows how far it is
 * and gives its event loop a turn meanwhile. Both queues are read first, so the count is of all copies.
 */
export function* importDownloadQueuesInSteps(
  database: RecordsDatabase,
  dataDir: string,
  options: OldRecordImportOptions = {},
): Generator<ImportCount, number> {
  const files = [
    ['studio', queueFile(dataDir)],
    ['cli', cliQueueFile(dataDir)],
  ] as const;
  if (!files.some(([, file]) => existsSync(file) || existsSync(journalOf(file)))) return 0;
  yield { done: 0, total: 0 };
  const queues = files.flatMap(([queue, file]) => {
    const entries = readOldQueue(file, options);
    return entries === null ? [] : [{ queue, file, entries }];
  });
  const total = queues.reduce((sum, { entries }) => sum + entries.length, 0);
  const { db } = database;
  const put = db.prepare(ADD_DOWNLOAD);
  const commit = db.transaction((queue: QueueName, batch: readonly DownloadEntry[]) => {
    for (const entry of batch) put.run(...downloadValues(queue, entry));
  }).immediate;
  // Flushed: the files are renamed only after, and a power cut must not leave neither rows nor files.
  setSynchronous(db, 'FULL');
  const size = options.entriesPerTransaction ?? ENTRIES_PER_TRANSACTION;
  let done = 0;
  for (const { queue, file, entries } of queues) {
    for (let start = 0; start < entries.length; start += size) {
      const batch = entries.slice(start, start + size);
      commit(queue, batch);
      done += batch.length;
      options.progress?.(done);
      yield { done, total };
    }
    const journal = journalOf(file);
    const kept = existsSync(journal) ? keepAs(journal, IMPORTED_SUFFIX) : null;
    const keptAs = existsSync(file) ? keepAs(file, IMPORTED_SUFFIX) : null;
    options.log?.info('old download queue taken into the records database', {
      queue,
      entries: entries.length,
      keptAs,
      journalKeptAs: kept,
    });
  }
  return done;
}

/** The queue's entries, null when it has no file, or when it was unreadable (then set aside). */
function readOldQueue(file: string, options: OldRecordImportOptions): DownloadEntry[] | null {
  const journal = journalOf(file);
  if (!existsSync(file) && !existsSync(journal)) return null;
  const whole = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const lines = existsSync(journal) ? readFileSync(journal, 'utf8') : '';
  try {
    return parseQueue(whole, lines, (reason) => options.log?.warn('download queue journal line skipped', { reason }))
      .entries;
  } catch (error) {
    const suffix = unreadableSuffix(options.now);
    const movedTo = keepAs(file, suffix);
    // Its lines belong to the file set aside: taken in alone they would be half a record.
    if (existsSync(journal)) keepAs(journal, suffix);
    options.log?.warn('old download queue unreadable, set aside: its copies are no longer known', {
      reason: (error as Error).message.slice(0, 200),
      movedTo,
    });
    return null;
  }
}
