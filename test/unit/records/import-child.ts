// A studio process taking the old journal in, for import-kill.test.ts. Arguments: the data folder, and
// `pause` to stop dead once half the journal's lines are committed. It says `half <rows>` there and
// waits, blocked, to be killed; otherwise it says `done <jobs>` once the ledger is open.
import { openLedger } from '../../../electron/services/records/open-ledger';

const [dataDir, mode, halfText] = process.argv.slice(2);
const half = Number(halfText);
const ledger = openLedger(dataDir as string, {
  onImport: (progress) => {
    if (mode !== 'pause' || progress.done || progress.rows < half) return;
    process.stdout.write(`half ${progress.rows}\n`);
    // Blocks this thread for good, between two transactions: the test kills the process here.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
process.stdout.write(`done ${ledger.loadAll().length}\n`);
