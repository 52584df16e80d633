// The runs of the row engine at a campaign's scale, in the folder's records database: one run of N rows
// made, each row changed three times (each change awaited alone, as a row's step does), the run's own
// fields written again (a balance read) and read back by a new connection; then the first start's
// import of 100 runs of N/10 rows kept as files by earlier versions. Prints the time of each.
// Run alone: node --import tsx test/bench/runs-records.measure.ts [rows]   (default 10,000).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecords } from '../../electron/services/records/open-ledger';
import { writeOldRun } from '../unit/records/runs-fixtures';

const ROWS = Number(process.argv[2] ?? 10_000);

interface Row {
  row: number;
  state: string;
  text: string;
}
interface Run {
  id: string;
  createdAt: number;
  state: string;
  rows: Row[];
}

const seconds = (from: bigint): string => (Number(process.hrtime.bigint() - from) / 1e9).toFixed(2);

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'studio-runs-measure-'));
  try {
    const store = openRecords(join(work, 'data')).runs.of<Row, Run>('campaigns', (raw) => raw as Run);
    let run: Run = {
      id: 'big',
      createdAt: 1,
      state: 'running',
      rows: Array.from({ length: ROWS }, (_, row) => ({ row, state: 'pending', text: `Hello ${row} `.repeat(20) })),
    };
    let from = process.hrtime.bigint();
    await store.putRun(run);
    console.log(`made: ${ROWS} rows in ${seconds(from)} s`);
    from = process.hrtime.bigint();
    for (const state of ['voiceover', 'video', 'done'])
      for (let n = 0; n < ROWS; n += 1) {
        const row = { ...(run.rows[n] as Row), state };
        const rows = [...run.rows];
        rows[n] = row;
        run = { ...run, rows };
        await store.putRow(run, row);
      }
    const changes = 3 * ROWS;
    console.log(
      `row changes: ${changes} in ${seconds(from)} s (${((Number(process.hrtime.bigint() - from) / 1e6 / changes) * 1000).toFixed(0)} µs each)`,
    );
    from = process.hrtime.bigint();
    await store.putRun({ ...run, state: 'paused' });
    console.log(`the run's own fields written again: ${seconds(from)} s`);
    from = process.hrtime.bigint();
    const reader = openRecords(join(work, 'data'), { readOnly: true }).runs.of<Row, Run>(
      'campaigns',
      (raw) => raw as Run,
    );
    console.log(`a new connection opened: ${seconds(from)} s`);
    from = process.hrtime.bigint();
    const read = await reader.get('big');
    console.log(`read back by it: ${read?.rows.length} rows in ${seconds(from)} s`);

    const old = join(work, 'old');
    const per = Math.max(1, Math.floor(ROWS / 10));
    for (let n = 0; n < 100; n += 1)
      writeOldRun(old, {
        kind: n % 2 ? 'batches' : 'campaigns',
        id: `run-${n}`,
        rows: per,
        folded: 1,
        lines: Array.from(
          { length: per },
          (_, row) => [row + 2, { row, state: 'done' }] as [number, { row: number; state: string }],
        ),
      });
    from = process.hrtime.bigint();
    openRecords(old);
    console.log(`first start's import: 100 runs of ${per} rows (and a journal line each) in ${seconds(from)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void main();
