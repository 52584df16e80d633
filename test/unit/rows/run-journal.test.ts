import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunJournal } from '../../../electron/services/rows/engine/run-journal';

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

const journal = (dir: string) => new RunJournal<Row, Run>(dir, 'runs', (raw) => raw as Run, 'run');
const run = (rows: number): Run => ({
  id: 'r1',
  createdAt: 1,
  state: 'running',
  rows: Array.from({ length: rows }, (_, row) => ({ row, state: 'pending', note: 'x'.repeat(200) })),
});
const withRow = (r: Run, row: Row): Run => ({ ...r, rows: r.rows.map((x) => (x.row === row.row ? row : x)) });

describe("a run's journal", () => {
  it("writes a row's change as its own line, not the whole run, and reads the run back as it was", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-journal-'));
    const store = journal(dir);
    let now = run(1_000);
    await store.putRun(now);
    const snapshot = statSync(join(dir, 'runs', 'r1.json')).size;
    for (const n of [3, 7, 3]) {
      const row = { ...(now.rows[n] as Row), state: n === 3 && now.rows[3]?.state === 'speech' ? 'done' : 'speech' };
      now = withRow(now, row);
      await store.putRow(now, row);
    }
    // The snapshot was not written again; three short lines were appended.
    expect(statSync(join(dir, 'runs', 'r1.json')).size).toBe(snapshot);
    const lines = readFileSync(join(dir, 'runs', 'r1.rows.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => line.length < 400)).toBe(true);
    expect(snapshot).toBeGreaterThan(200_000);
    const read = await journal(dir).get('r1');
    expect(read?.rows.slice(2, 8).map((r) => r.state)).toEqual([
      'pending',
      'done',
      'pending',
      'pending',
      'pending',
      'speech',
    ]);
  });

  it('folds the lines into a new snapshot once they outnumber twice the rows, and a torn last line is ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-journal-'));
    const store = journal(dir);
    let now = run(10);
    await store.putRun(now);
    for (let i = 0; i < 300; i += 1) {
      const row = { ...(now.rows[i % 10] as Row), state: `step-${i}` };
      now = withRow(now, row);
      await store.putRow(now, row);
    }
    // 257 lines made a snapshot (the least is 256); the lines after it are the journal.
    const lines = readFileSync(join(dir, 'runs', 'r1.rows.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.length).toBeLessThan(50);
    expect(JSON.parse(readFileSync(join(dir, 'runs', 'r1.json'), 'utf8')).journalSeq).toBe(257);
    // A kill in the middle of a line leaves half of one: the rows read as before it.
    appendFileSync(join(dir, 'runs', 'r1.rows.jsonl'), '{"seq":301,"row":{"row":0,"sta');
    const again = journal(dir);
    const read = await again.get('r1');
    expect(read?.rows.map((r) => r.state)).toEqual(now.rows.map((r) => r.state));
    // The next change after the torn line reads whole.
    const row = { ...(now.rows[4] as Row), state: 'after-the-kill' };
    await again.putRow(withRow(read as Run, row), row);
    expect((await journal(dir).get('r1'))?.rows[4]?.state).toBe('after-the-kill');
  });

  it('reads a run an older studio wrote as one file with no journal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-journal-'));
    await journal(dir).putRun(run(3));
    expect(existsSync(join(dir, 'runs', 'r1.rows.jsonl'))).toBe(false);
    expect((await journal(dir).get('r1'))?.rows).toHaveLength(3);
  });
});
