// A query asked once a row (a row's jobs, a run) is compiled once per connection and kept: the same text
// answers the same statement, in the mode it was asked for, and a connection keeps a bounded number.
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { keptStatement } from '../../../electron/services/records/database';

function table(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (a INTEGER, b TEXT)');
  db.prepare('INSERT INTO t VALUES (?, ?)').run(1, 'one');
  return db;
}

describe('a kept statement', () => {
  it('is prepared once for its text and mode, and answers as asked', () => {
    const db = table();
    const rows = keptStatement(db, 'SELECT a, b FROM t WHERE a = ?');
    expect(keptStatement(db, 'SELECT a, b FROM t WHERE a = ?')).toBe(rows);
    const raw = keptStatement(db, 'SELECT a, b FROM t WHERE a = ?', true);
    expect(raw).not.toBe(rows);
    expect(rows.get(1)).toMatchObject({ a: 1, b: 'one' });
    expect(raw.get(1)).toEqual([1, 'one']);
    // The raw one did not turn the other raw.
    expect(keptStatement(db, 'SELECT a, b FROM t WHERE a = ?').get(1)).toMatchObject({ a: 1, b: 'one' });
    // Another connection has its own.
    expect(keptStatement(table(), 'SELECT a, b FROM t WHERE a = ?')).not.toBe(rows);
  });

  it('lets the oldest go past the texts a connection keeps', () => {
    const db = table();
    const first = keptStatement(db, 'SELECT a FROM t LIMIT 0');
    for (let n = 1; n <= 200; n++) keptStatement(db, `SELECT a FROM t LIMIT ${n}`);
    expect(keptStatement(db, 'SELECT a FROM t LIMIT 200')).toBe(keptStatement(db, 'SELECT a FROM t LIMIT 200'));
    expect(keptStatement(db, 'SELECT a FROM t LIMIT 0')).not.toBe(first);
  });
});
