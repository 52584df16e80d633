// Runs listed without their rows: the database counts each run's rows by state from an index of its
// own (schema step 11), and what it counts is what reading every row gives, an old folder's rows
// included once the step has filled their column.
import Database from 'libsql';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, type Sqlite } from '../../../electron/services/records/database';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { MIGRATIONS } from '../../../electron/services/records/schema';
import { COUNT_STATES, type SqliteRuns } from '../../../electron/services/records/sqlite-runs';
import { summarise } from '../../../electron/services/rows/engine/run-store';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

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

const parse = (raw: unknown): Run => raw as Run;
const STATES = ['pending', 'voiceover', 'done', 'failed', 'done', 'cancelled', 'invalid', 'video', 'done'];
const run = (id: string, rows: number, createdAt: number): Run => ({
  id,
  createdAt,
  state: 'running',
  rows: Array.from({ length: rows }, (_, row) => ({ row, state: STATES[row % STATES.length] as string })),
});
const dbOf = (runs: SqliteRuns): Sqlite => (runs as unknown as { database: { db: Sqlite } }).database.db;

describe("runs' summaries", () => {
  // Fails when a row's change leaves its state column behind (mutation: PUT_RUN_ROW's upsert not setting
  // `state`): the changed rows would still count as they were.
  it("counts each run's rows by state as reading every row does, rows changed alone and removed runs included", async () => {
    const dir = tempDir('runs-summaries-');
    const store = openRecords(dir).runs.of<Row, Run>('runs', parse);
    let mixed = run('mixed', 1_000, 2);
    await store.putRun(mixed);
    await store.putRun(run('small', 3, 3));
    await store.putRun(run('gone', 5, 1));
    for (const n of [0, 1, 2, 500]) {
      const row = { row: n, state: 'failed' };
      mixed = { ...mixed, rows: mixed.rows.map((r) => (r.row === n ? row : r)) };
      await store.putRow(mixed, row);
    }
    // A run written whole again writes the rows that differ: their counts follow.
    mixed = { ...mixed, state: 'paused', rows: mixed.rows.map((r) => (r.row < 10 ? { ...r, state: 'done' } : r)) };
    await store.putRun(mixed);
    await store.remove('gone');

    const reader = openRecords(dir, { readOnly: true }).runs.of<Row, Run>('runs', parse);
    const whole = [await reader.get('small'), await reader.get('mixed')];
    const summaries = await reader.summaries();
    expect(summaries).toEqual(whole.map((r) => summarise(r as Run)));
    expect(summaries[1]).toMatchObject({ run: { id: 'mixed', state: 'paused' }, total: 1_000 });
    // 111 failed as made (every ninth from row 3), rows 0, 1, 2 and 500 failed since, 0 to 3 done again.
    expect(summaries[1]?.counts.failed).toBe(111);
    // The writer's own summaries read the same table.
    expect(await store.summaries()).toEqual(summaries);
  });

  // Fails when the counts read each row (mutation: COUNT_STATES over run_rows without the index, or the
  // index without `state`): the plan would search the table or sort into a temporary tree.
  it('reads the counts from run_rows_states alone, in its order', async () => {
    const runs = openRecords(tempDir('runs-summaries-plan-')).runs;
    await runs.of<Row, Run>('runs', parse).putRun(run('r', 50, 1));
    const plan = dbOf(runs).prepare(`EXPLAIN QUERY PLAN ${COUNT_STATES}`).all('runs') as { detail: string }[];
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toMatch(/USING COVERING INDEX run_rows_states \(kind=\?\)/);
    expect(details).not.toMatch(/TEMP B-TREE/);
  });

  // Fails when step 11 leaves the rows kept before it without a state (mutation: no UPDATE in the step),
  // or when a torn row's JSON fails the step and sets the whole database aside (mutation: no json_valid).
  it("fills the state of the rows an older studio kept, a torn row's left out of the counts", async () => {
    const dir = tempDir('runs-summaries-old-');
    const old = new Database(join(dir, DATABASE_FILE));
    for (const step of MIGRATIONS.slice(0, 10)) old.exec(step);
    old.exec('PRAGMA user_version = 10');
    const kept = run('kept', 20, 1);
    old
      .prepare('INSERT INTO runs (kind, id, created_at, run) VALUES (?, ?, ?, ?)')
      .run('runs', 'kept', 1, JSON.stringify({ ...kept, rows: undefined }));
    const putRow = old.prepare('INSERT INTO run_rows (kind, run_id, row, position, record) VALUES (?, ?, ?, ?, ?)');
    kept.rows.forEach((row, position) => putRow.run('runs', 'kept', row.row, position, JSON.stringify(row)));
    old.close();

    // A command that only reads, beside the folder before any studio of this version opened it, reads
    // the rows whole (mutation: no check of the version: no such index).
    const reader = openRecords(dir, { readOnly: true });
    expect(await reader.runs.of<Row, Run>('runs', parse).summaries()).toEqual([summarise(kept)]);
    const torn = new Database(join(dir, DATABASE_FILE));
    torn
      .prepare('INSERT INTO run_rows (kind, run_id, row, position, record) VALUES (?, ?, ?, ?, ?)')
      .run('runs', 'kept', 20, 20, '{"row":20,"sta');
    torn.close();

    const runs = openRecords(dir).runs;
    const [summary] = await runs.of<Row, Run>('runs', parse).summaries();
    expect(summary).toEqual({ ...summarise(kept), total: 21 });
    const unfilled = dbOf(runs)
      .prepare(
        `SELECT count(*) FROM run_rows WHERE json_valid(record) AND state IS NOT json_extract(record, '$.state')`,
      )
      .raw()
      .get();
    expect(unfilled).toEqual([0]);
  });
});
