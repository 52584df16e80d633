import type { JobRecord } from '../electron/common/bridge/jobs';
import { openLedger } from '../electron/services/records/open-ledger';

/**
 * Every job in a data folder's ledger, read beside the studio that owns the folder: read-only (a second
 * writer would contend for the database's lock with the owner), and closed again at once, since tests
 * read it often.
 */
export function readLedgerJobs(dataDir: string): JobRecord[] {
  const ledger = openLedger(dataDir, { readOnly: true });
  try {
    return ledger.loadAll();
  } finally {
    ledger.close();
  }
}
