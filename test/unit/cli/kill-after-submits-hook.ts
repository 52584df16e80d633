// Loaded with --import into a command-line process that a test means to kill half way (cli-io.ts). Once
// the ledger has written down the create of the Nth job (N from STUDIO_TEST_KILL_AFTER_SUBMITS), before
// that create is sent, the process kills itself with SIGKILL: nothing more flushed, as a crash would.
// The kill then lands at the same step of the run however fast or busy the machine is; a test watching
// the ledger from outside and killing when it saw enough could be too late, the run already over.
import { SqliteLedgerStorage } from '../../../electron/services/records/sqlite-ledger';

const after = Number(process.env.STUDIO_TEST_KILL_AFTER_SUBMITS);
const submitted = new Set<string>();
const put = SqliteLedgerStorage.prototype.put;
SqliteLedgerStorage.prototype.put = async function (this: SqliteLedgerStorage, record) {
  await put.call(this, record);
  if (record.phase !== 'submitting') return;
  submitted.add(record.id);
  if (submitted.size < after) return;
  await this.flush();
  process.kill(process.pid, 'SIGKILL');
};
