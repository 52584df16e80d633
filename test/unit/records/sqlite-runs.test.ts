// The runs of the row engine (campaigns, batches) as two tables of the folder's records database: a
// row's change writes that row alone, a run written whole only the rows that changed, one transaction a
// turn, flushed when the run itself changed; a reader beside the owner reads and cannot write.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sqlite } from '../../../electron/services/records/database';
import { openRecords } from '../../../electron/services/records/open-ledger';
import type { SqliteRuns } from '../../../electron/services/records/sqlite-runs';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

interface Row {
  row: number;
  state: string;
  note: string;
}
interface Run {
  id: string;
  createdAt: number;
  state: string;
  rows: Row[];
}

const parse = (raw: unknown, where: string): Run => {
  const run = raw as Run;
  if (typeof run.state !== 'string') throw new Error(`The run record ${where} cannot be read (no state)`);
  return run;
};
const run = (id: string, rows: number, createdAt = 1): Run => ({
  id,
  createdAt,
  state: 'running',
  rows: Array.from({ length: rows }, (_, row) => ({ row, state: 'pending', note: 'x'.repeat(200) })),
});
const withRow = (r: Run, row: Row): Run => ({ ...r, rows: r.rows.map((x) => (x.row === row.row ? row : x)) });

const dbOf = (runs: SqliteRuns): Sqlite => (runs as unknown as { database: { db: Sqlite } }).database.db;
/** Rows the connection has written (inserted, replaced, deleted) since the last call, as SQLite counts them. */
function changes(db: Sqlite): () => number {
  const total = () => Number((db.prepare('SELECT total_changes()').raw().get() as unknown[])[0]);
  let last = total();
  return () => {
    const now = total();
    const since = now - last;
    last = now;
    return since;
  };
}
/** The connection's flush level as SQLite has it: 2 FULL, 1 NORMAL. */
const level = (db: Sqlite): number => Number((db.prepare('PRAGMA synchronous').raw().get() as unknown[])[0]);

describe("the runs' tables", () => {
  // Fails when a row's change or a run's own change writes every row (mutation: putRow as putRun, or
  // no comparison with the rows held): the counts would be a thousand.
  it("writes a row's change as that row alone, a run's own change as its row and the rows that differ", async () => {
    const dir = tempDir('runs-');
    const runs = openRecords(dir).runs;
    const store = runs.of<Row, Run>('runs', parse);
    const written = changes(dbOf(runs));
    let now = run('r1', 1_000);
    await store.putRun(now);
    expect(written()).toBe(1_001);
    for (const n of [3, 7, 3]) {
      const row = { ...(now.rows[n] as Row), state: n === 3 && now.rows[3]?.state === 'speech' ? 'done' : 'speech' };
      now = withRow(now, row);
      await store.putRow(now, row);
    }
    expect(written()).toBe(3);
    now = { ...withRow(now, { ...(now.rows[9] as Row), state: 'failed' }), state: 'paused' };
    await store.putRun(now);
    expect(written()).toBe(2);

    const read = await openRecords(dir, { readOnly: true }).runs.of<Row, Run>('runs', parse).get('r1');
    expect(read).toEqual(now);
    expect(read?.rows.slice(2, 10).map((r) => r.state)).toEqual([
      'pending',
      'done',
      'pending',
      'pending',
      'pending',
      'speech',
      'pending',
      'failed',
    ]);
  });

  it("keeps a run's rows in its order, drops the rows a run written whole no longer has, and lists a kind newest first", async () => {
    const dir = tempDir('runs-order-');
    const store = openRecords(dir).runs.of<Row, Run>('runs', parse);
    const shuffled: Run = { ...run('r1', 0), rows: [9, 2, 5].map((row) => ({ row, state: 'pending', note: '' })) };
    await store.putRun(shuffled);
    await store.putRun(run('r2', 2, 5));
    await openRecords(dir)
      .runs.of<Row, Run>('others', parse)
      .putRun(run('r3', 1, 9));
    // Another process's connection: what it holds of r1 is not what this one wrote.
    const fresh = openRecords(dir).runs.of<Row, Run>('runs', parse);
    await fresh.putRun({ ...shuffled, rows: shuffled.rows.slice(1) });
    await store.putRow(run('r2', 2, 5), { row: 1, state: 'done', note: '' });

    const reader = openRecords(dir, { readOnly: true }).runs.of<Row, Run>('runs', parse);
    expect((await reader.get('r1'))?.rows.map((r) => r.row)).toEqual([2, 5]);
    expect((await reader.list()).map((r) => [r.id, r.rows.map((row) => row.state)])).toEqual([
      ['r2', ['pending', 'done']],
      ['r1', ['pending', 'pending']],
    ]);
    await store.remove('r2');
    expect((await reader.list()).map((r) => r.id)).toEqual(['r1']);
    expect(await reader.get('r2')).toBeNull();
  });

  // Fails when each change commits alone, or a row's change is flushed (mutation: setSynchronous FULL
  // for every commit): a campaign's many row changes would each wait for the disk.
  it("commits a turn's changes together, flushed only when a run itself changed", async () => {
    const dir = tempDir('runs-turn-');
    const runs = openRecords(dir).runs;
    const store = runs.of<Row, Run>('runs', parse);
    const db = dbOf(runs);
    let now = run('r1', 10);
    await store.putRun(now);
    expect(level(db)).toBe(2);
    const rows = [1, 2, 3].map((n) => ({ ...(now.rows[n] as Row), state: 'speech' }));
    const all = rows.map((row) => ((now = withRow(now, row)), store.putRow(now, row)));
    await Promise.all(all);
    expect(level(db)).toBe(1);
    expect((await store.get('r1'))?.rows.filter((r) => r.state === 'speech')).toHaveLength(3);
  });

  it('beside the owner reads what it committed and refuses every change', async () => {
    const dir = tempDir('runs-reader-');
    await openRecords(dir).runs.of<Row, Run>('runs', parse).putRun(run('r1', 2));
    const reader = openRecords(dir, { readOnly: true }).runs.of<Row, Run>('runs', parse);
    expect((await reader.get('r1'))?.rows).toHaveLength(2);
    await expect(reader.putRun(run('r2', 1))).rejects.toThrow(/only reads/);
    await expect(reader.putRow(run('r1', 2), { row: 0, state: 'x', note: '' })).rejects.toThrow(/only reads/);
    await expect(reader.remove('r1')).rejects.toThrow(/only reads/);
    expect((await reader.list()).map((r) => r.id)).toEqual(['r1']);

    const none = openRecords(tempDir('runs-none-'), { readOnly: true }).runs.of<Row, Run>('runs', parse);
    expect(await none.get('r1')).toBeNull();
    expect(await none.list()).toEqual([]);
  });

  it('names a run it cannot read and leaves it as it is; the list goes on without it', async () => {
    const dir = tempDir('runs-bad-');
    const records = openRecords(dir, { log: new MemoryLogger() });
    const store = records.runs.of<Row, Run>('runs', parse, 'batch');
    await store.putRun(run('good', 1, 1));
    await store.putRun(run('torn', 1, 2));
    await store.putRun(run('stateless', 1, 3));
    const db = dbOf(records.runs);
    db.prepare(`UPDATE run_rows SET record = '{"row":0,' WHERE run_id = 'torn'`).run();
    db.prepare(`UPDATE runs SET run = '{"id":"stateless","createdAt":3}' WHERE id = 'stateless'`).run();
    const log = new MemoryLogger();
    const again = openRecords(dir, { log }).runs.of<Row, Run>('runs', parse, 'batch');
    await expect(again.get('torn')).rejects.toThrow(
      /The batch record .*records\.db \(runs "torn"\) is not valid JSON.*left as it is/,
    );
    await expect(again.get('stateless')).rejects.toThrow(/records\.db \(runs "stateless"\) cannot be read/);
    await expect(again.get('../x')).rejects.toThrow(/is not a batch id/);
    expect((await again.list()).map((r) => r.id)).toEqual(['good']);
    expect(log.lines.filter((l) => l.level === 'warn' && /batch record skipped/.test(l.message))).toHaveLength(2);
    expect(db.prepare('SELECT count(*) FROM runs').raw().get()).toEqual([3]);
  });
});
