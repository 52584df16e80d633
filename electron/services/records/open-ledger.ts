import type { Notice, RecordsStage } from '../../common/bridge/system';
import type { Logger } from '../host/types';
import { checkpoint, openRecordsDatabase, type RecordsDatabase } from './database';
import { importJournal, type ImportProgress } from './journal-import';
import { ensureJobIndexes } from './schema';
import { SqliteLedgerStorage } from './sqlite-ledger';
import { SqliteUploadRecords } from './sqlite-uploads';
import type { DownloadRecords } from '../downloads/queue-records';
import { SqliteDownloadQueue, SqliteQueueReader } from './sqlite-downloads';
import { SqliteRuns } from './sqlite-runs';
import { importOtherRecordsInSteps } from './other-records-import';

export interface LedgerOptions {
  /** A command beside the folder's owner: reads its records, writes nothing. */
  readOnly?: boolean;
  log?: Logger;
  /** Tells the user about records set aside: their jobs leave the Library, so they must know. */
  notify?: (notice: Notice) => void;
  /** How the first start's import of the old journal is going (hosts print it). */
  onImport?: (progress: ImportProgress) => void;
  /** How the first start's import of the other old records (links, copies, runs) is going (hosts print it). */
  onStage?: (stage: RecordsStage) => void;
}

/** The records of a data folder kept in its database, all on one connection. */
export interface FolderRecords {
  ledger: SqliteLedgerStorage;
  uploads: SqliteUploadRecords;
  /** The download queue, which is also the record of copies, and its reader. */
  downloads: DownloadRecords;
  /** The runs of the row engine (campaigns, batches) with their rows. */
  runs: SqliteRuns;
}

/**
 * The records of a data folder, on one connection to its database: the job ledger, the uploader's
 * links, the download queue and the runs of campaigns and batches. One connection, so the folder has
 * one writer and the flush rules (database.ts setSynchronous) hold across all of them. Its owner opens
 * the database to write and, on the first start after the update, takes in the old job journal, the old
 * record of uploads, the old download queues and the old run files before anything reads them. A reader opens it read-only; a database it cannot read
 * leaves it with no records and a notice, since setting the file aside is the owner's to do.
 */
export function openRecords(dataDir: string, options: LedgerOptions = {}): FolderRecords {
  const reporting = { log: options.log, notify: options.notify };
  if (options.readOnly) {
    const database = openToRead(dataDir, options);
    return {
      ledger: new SqliteLedgerStorage(database, dataDir, reporting),
      uploads: new SqliteUploadRecords(database, options.log),
      downloads: downloadRecords(database, options.log),
      runs: new SqliteRuns(database, options.log, dataDir),
    };
  }
  const database = openRecordsDatabase({ dataDir, ...reporting });
  try {
    importJournal(database, dataDir, { ...reporting, progress: options.onImport });
    // An import killed after it set the indexes aside, its journal since gone, leaves them to build here.
    ensureJobIndexes(database.db);
    for (const stage of importOtherRecordsInSteps(database, dataDir, reporting)) options.onStage?.(stage);
    checkpoint(database.db);
  } catch (error) {
    database.close();
    throw error;
  }
  return {
    ledger: new SqliteLedgerStorage(database, dataDir, reporting),
    uploads: new SqliteUploadRecords(database, options.log),
    downloads: downloadRecords(database, options.log),
    runs: new SqliteRuns(database, options.log),
  };
}

function downloadRecords(database: RecordsDatabase | null, log?: Logger): DownloadRecords {
  return { store: new SqliteDownloadQueue(database, log), reader: new SqliteQueueReader(database, log) };
}

/** The job ledger of a data folder (its records opened as openRecords does; closing the ledger closes them). */
export function openLedger(dataDir: string, options: LedgerOptions = {}): SqliteLedgerStorage {
  return openRecords(dataDir, options).ledger;
}

function openToRead(dataDir: string, options: LedgerOptions): RecordsDatabase | null {
  try {
    return openRecordsDatabase({ dataDir, readOnly: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    options.log?.warn('records database could not be read', { reason });
    options.notify?.({
      level: 'warning',
      title: "The studio's records could not be read",
      detail: `The job list is empty for this command (${reason}). The studio that owns the folder sets an unreadable database aside when it next starts.`,
    });
    return null;
  }
}
