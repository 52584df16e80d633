// The download queue a test's manager or service keeps: the records database of a folder of its own,
// as a host opens it (openRecords), so a restart in the same folder finds what was recorded.
import type { DownloadRecords, QueueRecord } from '../../../electron/services/downloads/queue-records';
import { openRecords } from '../../../electron/services/records/open-ledger';

export function recordsIn(dataDir: string): DownloadRecords {
  return openRecords(dataDir).downloads;
}

export function queueIn(dataDir: string): QueueRecord {
  return recordsIn(dataDir).store;
}
