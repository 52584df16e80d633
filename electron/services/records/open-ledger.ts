import type { Notice } from '../../common/bridge/system';
import type { Logger } from '../host/types';
import { openRecordsDatabase, type RecordsDatabase } from './database';
import { importJournal, type ImportProgress } from './journal-import';
import { ensureJobIndexes } from './schema';
import { SqliteLedgerStorage } from './sqlite-ledger';

export interface LedgerOptions {
  /** A command beside the folder's owner: reads its records, writes nothing. */
  readOnly?: boolean;
  log?: Logger;
  /** Tells the user about records set aside: their jobs leave the Library, so they must know. */
  notify?: (notice: Notice) => void;
  /** How the first start's import of the old journal is going (hosts print it). */
  onImport?: (progress: ImportProgress) => void;
}

/**
 * The job ledger of a data folder. Its owner opens the database to write and, on the first start after
 * the update, takes in the old journal before anything reads the jobs. A reader opens it read-only; a
 * database it cannot read leaves it with no jobs and a notice, since setting the file aside is the
 * owner's to do.
 */
export function openLedger(dataDir: string, options: LedgerOptions = {}): SqliteLedgerStorage {
  const reporting = { log: options.log, notify: options.notify };
  if (options.readOnly) return new SqliteLedgerStorage(openToRead(dataDir, options), dataDir, reporting);
  const database = openRecordsDatabase({ dataDir, ...reporting });
  try {
    importJournal(database, dataDir, { ...reporting, progress: options.onImport });
    // An import killed after it set the indexes aside, its journal since gone, leaves them to build here.
    ensureJobIndexes(database.db);
  } catch (error) {
    database.close();
    throw error;
  }
  return new SqliteLedgerStorage(database, dataDir, reporting);
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
