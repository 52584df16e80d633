// A studio process taking the old download queue in, for downloads-import.test.ts. Arguments: the data
// folder, and `pause` to stop dead once half the entries are committed. It says `half <entries>` there
// and waits, blocked, to be killed; otherwise it opens the folder's records as a host does and says
// `done <rows>`.
import { openRecordsDatabase } from '../../../electron/services/records/database';
import { importDownloadQueues } from '../../../electron/services/records/downloads-import';
import { openRecords } from '../../../electron/services/records/open-ledger';

const [dataDir, mode, halfText] = process.argv.slice(2) as [string, string | undefined, string | undefined];
if (mode === 'pause') {
  const half = Number(halfText);
  importDownloadQueues(openRecordsDatabase({ dataDir }), dataDir, {
    entriesPerTransaction: 1_000,
    progress: (entries) => {
      if (entries < half) return;
      process.stdout.write(`half ${entries}\n`);
      // Blocks this thread for good, between two transactions: the test kills the process here.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  });
}
const { downloads } = openRecords(dataDir);
process.stdout.write(`done ${(await downloads.reader.entries('studio')).length}\n`);
