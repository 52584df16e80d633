// The runs of a data folder as a host opens them (openRecords: its records database), so a second
// host on the same folder, or a read after a run, finds what was written.
import { openRecords } from '../../../electron/services/records/open-ledger';
import type { SqliteRuns } from '../../../electron/services/records/sqlite-runs';

export function runsIn(dataDir: string, options: { readOnly?: boolean } = {}): SqliteRuns {
  return openRecords(dataDir, options).runs;
}
