// The stores of one connection commit a turn's changes together (records/turn-commits.ts). What that must
// never cost: a paid create's record is on disk, flushed, and readable by another process before its
// caller goes on (the engine sends the request then), however much unflushed bookkeeping of other stores
// shares its turn; a store whose statements fail does not take the create's record down with it; and a
// process killed with a turn's changes still gathered loses only that turn's bookkeeping.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sqlite } from '../../../electron/services/records/database';
import { DATABASE_FILE } from '../../../electron/services/records/database';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { download, downloadRows } from './download-fixtures';
import { record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const root = join(import.meta.dirname, '..', '..', '..');

/** What another process finds on disk: the database opened read-only on a connection of its own. */
function onDisk(dir: string) {
  const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).raw().all() as unknown[][];
    return {
      jobs: all('SELECT id, phase, polls FROM jobs ORDER BY id').map((r) => r.join(':')),
      rows: all(`SELECT row, json_extract(record, '$.state') FROM run_rows ORDER BY row`).map((r) => r.join(':')),
      downloads: all(`SELECT id, state FROM downloads ORDER BY id`).map((r) => r.join(':')),
      uploads: all('SELECT hash FROM uploads ORDER BY hash').map((r) => String(r[0])),
    };
  } finally {
    db.close();
  }
}

/**
 * Runs turn-kill-child.ts on `dir`: when it says its paid create's record is written, looks at the disk
 * (answered as `atIntent`) before letting it go on; when it says a turn's bookkeeping is gathered, kills it.
 */
function runChild(dir: string): Promise<{ atIntent: ReturnType<typeof onDisk> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/unit/records/turn-kill-child.ts'), dir],
      {
        cwd: root,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let said = '';
    let stderr = '';
    let atIntent: ReturnType<typeof onDisk> | null = null;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      said += d.toString();
      if (atIntent === null && said.includes('intent written\n')) {
        atIntent = onDisk(dir);
        child.stdin.write('go\n');
      }
      if (said.includes('bookkeeping pending\n')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (atIntent !== null && signal === 'SIGKILL') resolve({ atIntent });
      else reject(new Error(`child ended with ${signal ?? code} having said ${JSON.stringify(said)}: ${stderr}`));
    });
  });
}

describe("a turn's changes of every store, committed together", () => {
  // Fails when a put settles before the turn's commit (mutation: resolve the waiters in TurnCommits.add),
  // or when the ledger's part is dropped from a turn others share: the intent would not be on disk when
  // the request leaves. Fails too when the kill keeps what was only gathered (it would have been written
  // outside a turn's transaction) or loses what an earlier turn committed unflushed.
  it("has a paid create's record on disk before it goes on, and a kill loses only the turn gathered", async () => {
    const dir = tempDir('turn-kill-');
    const { atIntent } = await runChild(dir);
    // Read by another process while the child waited to send: the intent, and the bookkeeping of its turn.
    expect(atIntent.jobs).toEqual(['paid-1:submitting:']);
    expect(atIntent.rows).toEqual(['0:voiceover', '1:pending']);
    expect(atIntent.downloads).toEqual(['d-1:downloading']);
    expect(atIntent.uploads).toEqual(['first']);
    // Killed with a turn gathered: that turn's bookkeeping is gone, everything committed before is there,
    // and the folder opens to write as it was (the paid job is found and followed again from its record).
    const after = onDisk(dir);
    expect(after).toEqual(atIntent);
    const again = openRecords(dir);
    expect(again.ledger.loadAll().map((job) => `${job.id}:${job.phase}`)).toEqual(['paid-1:submitting']);
    expect(downloadRows(dir).map((row) => row.id)).toEqual(['d-1']);
    again.ledger.close();
  }, 60_000);

  // Fails when the turn's commit is flushed only as its first or last store asks (mutation: durable from
  // one part), or never (mutation: the ledger's `durable` answering false): a power cut could then undo
  // the record of a create whose request has left.
  it("flushes a turn whose paid create shares it with other stores' unflushed changes", async () => {
    const dir = tempDir('turn-flush-');
    const records = openRecords(dir);
    const db = (records.ledger as unknown as { database: { db: Sqlite } }).database.db;
    const levels: number[] = [];
    const exec = db.exec.bind(db);
    (db as { exec: unknown }).exec = (sql: string) => {
      if (sql === 'COMMIT') levels.push(Number((db.prepare('PRAGMA synchronous').raw().get() as unknown[])[0]));
      return exec(sql);
    };
    const runs = records.runs.of<{ row: number }, { id: string; createdAt: number; rows: { row: number }[] }>(
      'campaigns',
      (raw) => raw as never,
    );
    await runs.putRun({ id: 'c', createdAt: 1, rows: [{ row: 0 }] });
    levels.length = 0;
    await Promise.all([
      records.downloads.store.save([download(1)], { durable: false }),
      runs.putRow({ id: 'c', createdAt: 1, rows: [{ row: 0 }] }, { row: 0 }),
      records.ledger.put(record('paid', 'submitting')),
      records.downloads.store.save([download(2)], { durable: false }),
    ]);
    // One commit for the three stores, flushed (2: FULL) for the create among them.
    expect(levels).toEqual([2]);
    await Promise.all([
      records.downloads.store.save([download(1, { state: 'missing' })], { durable: false }),
      records.ledger.put({ ...record('paid', 'processing'), remoteId: 'r', polls: 2 }),
    ]);
    // Nothing in it worth a flush: committed unflushed (1: NORMAL).
    expect(levels).toEqual([2, 1]);
    records.ledger.close();
  });

  // Fails when a store's failure undoes the whole turn (mutation: no savepoint per store): the create's
  // record would be lost with another store's refused row, and nothing sent for a disk-full trigger on
  // downloads. Fails too when the failing store's callers are not told, or its partial rows are kept.
  it("keeps a paid create's record when another store's statements fail in the same turn", async () => {
    const dir = tempDir('turn-isolated-');
    const records = openRecords(dir);
    const db = (records.ledger as unknown as { database: { db: Sqlite } }).database.db;
    db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON downloads WHEN NEW.id = 'd-2'
      BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    const runs = records.runs.of<{ row: number }, { id: string; createdAt: number; rows: { row: number }[] }>(
      'campaigns',
      (raw) => raw as never,
    );
    const turn = [
      records.downloads.store.save([download(1), download(2)]),
      runs.putRun({ id: 'c', createdAt: 1, rows: [{ row: 0 }] }),
      records.ledger.put(record('paid', 'submitting')),
    ];
    await Promise.all(turn);
    const disk = onDisk(dir);
    expect(disk.jobs).toEqual(['paid:submitting:']);
    expect(disk.rows).toEqual(['0:']);
    // The downloads' part undone whole (d-1 with d-2), kept by its store for its next commit.
    expect(disk.downloads).toEqual([]);
    db.exec('DROP TRIGGER refuse');
    await records.downloads.store.close();
    expect(onDisk(dir).downloads).toEqual(['d-1:saved', 'd-2:saved']);
    records.ledger.close();
  });
});
