// A writer of a folder's records for turn-kill.test.ts: a paid create's record written in the same turn as
// other stores' unflushed bookkeeping, then (once the parent has looked) a turn of bookkeeping that the
// parent kills before it commits. Usage: turn-kill-child.ts DATA_DIR
import { readSync } from 'node:fs';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { download } from './download-fixtures';
import { record } from './ledger-fixtures';

interface Row {
  row: number;
  state: string;
}
interface Run {
  id: string;
  createdAt: number;
  state: string;
  rows: Row[];
}

const records = openRecords(process.argv[2] as string);
const runs = records.runs.of<Row, Run>('campaigns', (raw) => raw as Run);
const withRow = (run: Run, row: Row): Run => ({ ...run, rows: run.rows.map((r) => (r.row === row.row ? row : r)) });
const upload = (hash: string) => ({
  storageId: 's3',
  hash,
  key: `k/${hash}`,
  url: `https://bucket.test/${hash}`,
  expiresAt: null,
  sizeBytes: 1,
  fileName: 'f.png',
  uploadedAt: 1,
});

let run: Run = { id: 'camp', createdAt: 1, state: 'running', rows: [0, 1].map((row) => ({ row, state: 'pending' })) };
await runs.putRun(run);

// One turn: a row's change, a download's progress and an upload's link (none worth a flush), and the
// paid create's record. The engine awaits the put before the create's request leaves.
const voiceover = { row: 0, state: 'voiceover' };
run = withRow(run, voiceover);
const bookkeeping = [
  runs.putRow(run, voiceover),
  records.downloads.store.save([download(1, { state: 'downloading' })], { durable: false }),
];
records.uploads.remember(upload('first'));
await records.ledger.put(record('paid-1', 'submitting'));
process.stdout.write('intent written\n');
// The request would leave now: the parent looks at the disk from a process of its own meanwhile.
readSync(0, Buffer.alloc(16));
await Promise.all(bookkeeping);

// A poll's news of the job (not flushed on its own), with the row's and the download's: all asked for in
// this turn, none committed yet when the parent kills the process.
const video = { row: 0, state: 'video' };
run = withRow(run, video);
void records.ledger.put({ ...record('paid-1', 'processing'), remoteId: 'r-1', polls: 1 });
void runs.putRow(run, video);
void records.downloads.store.save([download(1, { state: 'saved' })], { durable: false });
records.uploads.remember(upload('second'));
process.stdout.write('bookkeeping pending\n');
// Held here, as a process stuck in a long statement would be: the turn's commit never comes.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
