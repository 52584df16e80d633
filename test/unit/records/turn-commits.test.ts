// The one batcher of the records' stores: the changes of one event-loop turn in one commit, a commit at
// once for a caller that must not wait for the turn's end, and a failed commit told to its own callers.
import { afterEach, describe, expect, it } from 'vitest';
import { openRecordsDatabase, type Sqlite } from '../../../electron/services/records/database';
import { TurnCommits } from '../../../electron/services/records/turn-commits';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

/**
 * A batcher of numbers whose commits are recorded once committed, and which fails a batch holding a
 * negative number; on `db` (a connection of its own unless given) when it writes through a connection.
 */
function recorder(db: Sqlite | null = null): { commits: TurnCommits<number[]>; committed: number[][] } {
  const committed: number[][] = [];
  const commits = new TurnCommits<number[]>(db, {
    empty: () => [],
    durable: (batch) => batch.some((n) => n >= 100),
    write: (batch) => {
      if (batch.some((n) => n < 0)) throw new Error(`refused ${batch.join(',')}`);
      db?.prepare('INSERT INTO numbers VALUES (?)').run(batch.join(','));
      return () => void committed.push(batch);
    },
  });
  return { commits, committed };
}

/** A folder's database with a table of its own for the recorders, its COMMITs and their flush levels counted. */
function database(): { db: Sqlite; levels: number[] } {
  const { db } = openRecordsDatabase({ dataDir: tempDir('turn-commits-') });
  db.exec('CREATE TABLE numbers (batch TEXT)');
  const levels: number[] = [];
  const exec = db.exec.bind(db);
  (db as { exec: unknown }).exec = (sql: string) => {
    if (sql === 'COMMIT') levels.push(Number((db.prepare('PRAGMA synchronous').raw().get() as unknown[])[0]));
    return exec(sql);
  };
  return { db, levels };
}
const inTable = (db: Sqlite) => (db.prepare('SELECT batch FROM numbers').raw().all() as string[][]).map(([b]) => b);

const nextTurn = (): Promise<void> => new Promise((done) => setImmediate(done));

describe('the changes of a turn committed together', () => {
  it('commits the changes asked for within one turn in one commit, and the next turn in another', async () => {
    const { commits, committed } = recorder();
    const first = [1, 2, 3].map((n) => commits.add((batch) => batch.push(n)));
    // Still this turn, after the callers' own awaits: the same batch.
    await Promise.resolve();
    first.push(commits.add((batch) => batch.push(4)));
    expect(committed).toEqual([]);
    await Promise.all(first);
    expect(committed).toEqual([[1, 2, 3, 4]]);
    await commits.add((batch) => batch.push(5));
    expect(committed).toEqual([[1, 2, 3, 4], [5]]);
  });

  it('settles a change only once its batch is committed', async () => {
    const { commits, committed } = recorder();
    let settled = false;
    void commits.add((batch) => batch.push(1)).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await commits.flush();
    expect(settled).toBe(true);
    expect(committed).toEqual([[1]]);
  });

  it('commits at once when asked, before returning, and the turn then has nothing left to commit', async () => {
    const { commits, committed } = recorder();
    const done = commits.add((batch) => batch.push(1));
    commits.now();
    expect(committed).toEqual([[1]]);
    await done;
    await nextTurn();
    expect(committed).toEqual([[1]]);
    // Nothing asked for: nothing committed.
    commits.now();
    expect(committed).toEqual([[1]]);
  });

  it("rejects every change of a failed batch with the commit's error, and no change of another batch", async () => {
    const { commits, committed } = recorder();
    const failed = [commits.add((batch) => batch.push(1)), commits.add((batch) => batch.push(-1))];
    const results = await Promise.allSettled(failed);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('refused 1,-1');
    // The next batch starts empty: the failed change is not carried into it.
    await expect(commits.add((batch) => batch.push(2))).resolves.toBeUndefined();
    expect(committed).toEqual([[2]]);
  });

  it('tells a failure of a commit made at once to its callers, not to the caller of now', async () => {
    const { commits } = recorder();
    const done = commits.add((batch) => batch.push(-1));
    expect(() => commits.now()).not.toThrow();
    await expect(done).rejects.toThrow('refused -1');
  });

  it('flush waits for a commit asked for while the previous one was awaited', async () => {
    const { commits, committed } = recorder();
    void commits.add((batch) => batch.push(1));
    const flushed = commits.flush();
    await nextTurn();
    void commits.add((batch) => batch.push(2));
    await flushed;
    await commits.flush();
    expect(committed).toEqual([[1], [2]]);
  });

  // Fails when each store commits a transaction of its own (mutation: a ConnectionTurn per TurnCommits),
  // or the turn is flushed as one store asks rather than any (mutation: durable from the first part).
  it("commits every store's changes on one connection in one transaction, flushed when any must be", async () => {
    const { db, levels } = database();
    const [a, b] = [recorder(db), recorder(db)];
    await Promise.all([a.commits.add((batch) => batch.push(1)), b.commits.add((batch) => batch.push(100))]);
    expect(levels).toEqual([2]);
    expect([a.committed, b.committed]).toEqual([[[1]], [[100]]]);
    await Promise.all([a.commits.add((batch) => batch.push(2)), b.commits.add((batch) => batch.push(3))]);
    expect(levels).toEqual([2, 1]);
    // One store's `now` commits the others' gathered changes too (a store closing the connection).
    const later = b.commits.add((batch) => batch.push(4));
    a.commits.now();
    expect(levels).toEqual([2, 1, 1]);
    await later;
    expect(inTable(db)).toEqual(['1', '100', '2', '3', '4']);
  });

  // Fails when a store's failure undoes the others' part of the turn (mutation: no savepoint per store).
  it("undoes a failing store's part alone, and tells only its callers", async () => {
    const { db } = database();
    const [a, b] = [recorder(db), recorder(db)];
    const results = await Promise.allSettled([
      a.commits.add((batch) => batch.push(1)),
      b.commits.add((batch) => batch.push(-1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(inTable(db)).toEqual(['1']);
    expect(b.committed).toEqual([]);
  });
});
