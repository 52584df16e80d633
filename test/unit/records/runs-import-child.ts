// A studio process taking the old run files in, for runs-import.test.ts. Arguments: the data folder,
// and `pause` to stop dead once half the rows are committed. It says `half <rows>` there and waits,
// blocked, to be killed; otherwise it opens the folder's records as a host does and says
// `done <runs> <rows>`.
import { openRecordsDatabase } from '../../../electron/services/records/database';
import { importRuns } from '../../../electron/services/records/runs-import';
import { openRecords } from '../../../electron/services/records/open-ledger';

const [dataDir, mode, halfText] = process.argv.slice(2) as [string, string | undefined, string | undefined];
if (mode === 'pause') {
  const half = Number(halfText);
  importRuns(openRecordsDatabase({ dataDir }), dataDir, {
    entriesPerTransaction: 1_000,
    progress: (rows) => {
      if (rows < half) return;
      process.stdout.write(`half ${rows}\n`);
      // Blocks this thread for good, between two transactions: the test kills the process here.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  });
}
const { runs } = openRecords(dataDir);
const all = [
  ...(await runs.of('campaigns', (raw) => raw as { id: string; createdAt: number; rows: { row: number }[] }).list()),
  ...(await runs.of('batches', (raw) => raw as { id: string; createdAt: number; rows: { row: number }[] }).list()),
];
process.stdout.write(`done ${all.length} ${all.reduce((sum, run) => sum + run.rows.length, 0)}\n`);
