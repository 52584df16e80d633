import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notice } from '../../../electron/common/bridge/system';
import { DATABASE_FILE } from '../../../electron/services/records/database';
import { jobColumns } from '../../../electron/services/records/sqlite-ledger';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { putLine, record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

/** A connection of the test's own to the folder's database, to look at (or tamper with) what is on disk. */
const raw = (dir: string) => new Database(join(dir, DATABASE_FILE));
const ids = (records: { id: string; phase: string }[]) => records.map((r) => `${r.id}:${r.phase}`).sort();

describe('SqliteLedgerStorage', () => {
  it('keeps one row per job, the last change of a turn winning, and reads them back after a reopen', async () => {
    const dir = tempDir('ledger-rows-');
    const ledger = openLedger(dir);
    await ledger.put(record('a'));
    await Promise.all([
      ledger.put(record('b', 'queued', 5)),
      ledger.put(record('b', 'processing', 5)),
      ledger.put({ ...record('b', 'completed', 5), finishedAt: 9, projectId: 'p' }),
    ]);
    ledger.close();
    const again = openLedger(dir);
    expect(ids(again.loadAll())).toEqual(['a:submitting', 'b:completed']);
    // The columns the Library will query by are kept beside the record.
    const row = raw(dir)
      .prepare('SELECT kind, phase, connection_id, project_id, created_at, finished_at FROM jobs WHERE id = ?')
      .get('b');
    expect(row).toMatchObject({
      kind: 'tts',
      phase: 'completed',
      connection_id: 'c',
      project_id: 'p',
      created_at: 5,
      finished_at: 9,
    });
    await again.remove('a');
    again.close();
    expect(ids(openLedger(dir).loadAll())).toEqual(['b:completed']);
    // The database and nothing else: no journal is written any more.
    expect(readdirSync(dir).filter((f) => !f.startsWith(DATABASE_FILE))).toEqual([]);
  });

  // Fails when the close leaves the turn's changes to a commit after it (mutation: drop the close's
  // commits.now()): they would then fail on the closed connection.
  it('commits the changes asked for before a close, within the same turn', async () => {
    const dir = tempDir('ledger-close-');
    const ledger = openLedger(dir);
    const put = ledger.put(record('late', 'queued'));
    ledger.close();
    await put;
    expect(ids(openLedger(dir, { readOnly: true }).loadAll())).toEqual(['late:queued']);
  });

  // Fails when a put settles before its transaction commits (mutation: resolve the waiters first), or
  // when the writer leaves SQLite's default flushing (mutation: synchronous = NORMAL, which a power cut
  // can undo after the paid create has left).
  it('settles a put once its row is committed with the write-ahead log flushed', async () => {
    const dir = tempDir('ledger-durable-');
    const ledger = openLedger(dir);
    await ledger.put(record('paid', 'submitting'));
    // Another connection, as a process started after a crash would be, finds it at once.
    expect(ids(openLedger(dir, { readOnly: true }).loadAll())).toEqual(['paid:submitting']);
    const db = (ledger as unknown as { database: { db: InstanceType<typeof Database> } }).database.db;
    expect((db.prepare('PRAGMA synchronous').raw().get() as unknown[])[0]).toBe(2);
    expect((db.prepare('PRAGMA journal_mode').raw().get() as unknown[])[0]).toBe('wal');
  });

  // An fsync per poll round held a worker's main thread about 20 ms a row. Fails when every commit is
  // flushed as a paid create's is (mutation: FULL always), or when a create's record or its answer is
  // committed without its flush (mutation: NORMAL always, or the answer left out of mustReachDisk).
  it("flushes a paid create's record and its answer at once, and lets a poll's answer ride on the next flush", async () => {
    const dir = tempDir('ledger-sync-');
    const ledger = openLedger(dir);
    const db = (ledger as unknown as { database: { db: InstanceType<typeof Database> } }).database.db;
    const synchronous = () => (db.prepare('PRAGMA synchronous').raw().get() as unknown[])[0];
    await ledger.put(record('paid', 'submitting'));
    expect(synchronous()).toBe(2);
    // A poll's answer: committed (a crash of the studio keeps it), not flushed on its own.
    await ledger.put({ ...record('polled', 'processing'), remoteId: 'r-1', polls: 2 });
    expect(synchronous()).toBe(1);
    // The create's answer, the service's id before any poll: flushed.
    await ledger.put({ ...record('paid', 'queued'), remoteId: 'r-2', polls: 0 });
    expect(synchronous()).toBe(2);
    // A turn with a create among polls is flushed whole.
    await Promise.all([
      ledger.put({ ...record('polled', 'processing'), remoteId: 'r-1', polls: 3 }),
      ledger.put(record('next', 'submitting')),
    ]);
    expect(synchronous()).toBe(2);
    await ledger.put({ ...record('polled', 'completed'), remoteId: 'r-1', polls: 4, finishedAt: 5 });
    expect(synchronous()).toBe(1);
    ledger.close();
    expect(ids(openLedger(dir).loadAll())).toEqual(['next:submitting', 'paid:queued', 'polled:completed']);
  });

  // Fails when the turn's changes are committed one by one (mutation: a transaction per change): the
  // put before the refused one would stay on disk although its caller heard of a failure.
  it('commits the changes of one turn together or not at all, and every caller hears why', async () => {
    const dir = tempDir('ledger-refused-');
    const ledger = openLedger(dir);
    await ledger.put(record('before'));
    // A write SQLite refuses part way through the turn, as a full disk would.
    raw(dir).exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON jobs WHEN NEW.id = 'refused' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
    );
    const turn = [ledger.put(record('with-it')), ledger.put(record('refused'))];
    for (const put of turn) await expect(put).rejects.toThrow(/disk is full/);
    await ledger.put(record('after'));
    expect(ids(openLedger(dir, { readOnly: true }).loadAll())).toEqual(['after:submitting', 'before:submitting']);
  });

  // Fails when a change deletes and inserts the job's row again (mutation: PUT_JOB as INSERT OR REPLACE,
  // which gives the row a new rowid), or when the update leaves a column or an index behind.
  it("changes a job's row in place, every column and index following its last record", async () => {
    const dir = tempDir('ledger-upsert-');
    const ledger = openLedger(dir);
    const campaign = { type: 'campaign-row', campaignId: 'camp', row: 3, step: 'voiceover', take: 1 } as const;
    await ledger.put({ ...record('a'), purpose: campaign });
    await ledger.put(record('b'));
    const rowid = () => (raw(dir).prepare('SELECT rowid FROM jobs WHERE id = ?').raw().get('a') as unknown[])[0];
    const first = rowid();
    const last = {
      ...record('a', 'completed'),
      purpose: campaign,
      remoteId: 'r-a',
      polls: 2,
      finishedAt: 7,
      resultUrl: 'https://cdn.example/a.mp3',
      chargedCredits: 4,
      chargeSource: 'service' as const,
    };
    await ledger.put({
      ...last,
      phase: 'processing',
      polls: 1,
      finishedAt: null,
      resultUrl: null,
      chargedCredits: null,
    });
    await ledger.put(last);
    ledger.close();
    expect(rowid()).toBe(first);
    const db = raw(dir);
    const columns = db
      .prepare(
        `SELECT kind, phase, connection_id, project_id, created_at, finished_at, expires_at, remote_id, summary,
           run_id, purpose_type, cost_state, cost_credits, keepable, purpose_row, purpose_step, purpose_take, polls
         FROM jobs WHERE id = 'a'`,
      )
      .raw()
      .get();
    expect(columns).toEqual(jobColumns(last));
    // Every index agrees with the table, and the ones a run and the Library read find the job as it ended.
    expect(db.prepare('PRAGMA integrity_check').raw().get()).toEqual(['ok']);
    const found = (sql: string) => (db.prepare(sql).raw().all() as unknown[][]).map(([id]) => id);
    expect(found("SELECT id FROM jobs INDEXED BY jobs_page_phase WHERE phase = 'completed'")).toEqual(['a']);
    expect(found("SELECT id FROM jobs INDEXED BY jobs_page_phase WHERE phase = 'processing'")).toEqual([]);
    expect(found("SELECT id FROM jobs INDEXED BY jobs_run_steps WHERE run_id = 'camp' AND polls = 2")).toEqual(['a']);
    const charges = "connection_id = 'c' AND kind = 'tts' AND cost_state = 'charged' AND phase <> 'failed'";
    expect(found(`SELECT id FROM jobs INDEXED BY jobs_charges WHERE ${charges}`)).toEqual(['a']);
  });

  // Fails when a change sets every column (mutation: put() always running PUT_JOB, the upsert): SQLite then
  // rewrites the job's entry in every index whatever its values, six times the pages of a poll's change.
  it("sets only the columns a job's change touched, and none when nothing changed", async () => {
    const dir = tempDir('ledger-columns-');
    const ledger = openLedger(dir);
    const campaign = { type: 'campaign-row', campaignId: 'camp', row: 3, step: 'voiceover', take: 1 } as const;
    const polled = { ...record('a', 'processing'), purpose: campaign, remoteId: 'r-a', polls: 1 };
    await ledger.put(polled);
    // A trigger per column, fired whenever an UPDATE sets it (its value changed or not).
    const db = raw(dir);
    const columns = (db.prepare('PRAGMA table_info(jobs)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((name) => name !== 'id');
    db.exec(
      `CREATE TABLE touched (name TEXT); ${columns
        .map(
          (c) => `CREATE TRIGGER set_${c} AFTER UPDATE OF ${c} ON jobs BEGIN INSERT INTO touched VALUES ('${c}'); END;`,
        )
        .join(' ')}`,
    );
    const touched = () => {
      const names = (db.prepare('SELECT name FROM touched').raw().all() as string[][]).map(([name]) => name);
      db.exec('DELETE FROM touched');
      return names.sort();
    };
    await ledger.put({ ...polled, polls: 2 });
    expect(touched()).toEqual(['polls', 'record']);
    await ledger.put({ ...polled, polls: 2 });
    expect(touched()).toEqual([]);
    const ended = {
      ...polled,
      phase: 'completed' as const,
      polls: 3,
      finishedAt: 9,
      resultUrl: 'https://cdn.example/a',
    };
    await ledger.put(ended);
    expect(touched()).toEqual(['finished_at', 'phase', 'polls', 'record']);
    ledger.close();
    expect(db.prepare('PRAGMA integrity_check').raw().get()).toEqual(['ok']);
    const written = db.prepare("SELECT * FROM jobs WHERE id = 'a'").get() as Record<string, unknown>;
    const [json, ...rest] = [JSON.stringify(ended), ...jobColumns(ended)];
    expect(JSON.parse(written.record as string)).toEqual(JSON.parse(json as string));
    expect(rest).toEqual(
      ['kind', 'phase', 'connection_id', 'project_id', 'created_at', 'finished_at', 'expires_at', 'remote_id']
        .concat(['summary', 'run_id', 'purpose_type', 'cost_state', 'cost_credits', 'keepable', 'purpose_row'])
        .concat(['purpose_step', 'purpose_take', 'polls'])
        .map((c) => written[c]),
    );
  });

  it('refuses ids that are not the engine’s own', async () => {
    const ledger = openLedger(tempDir('ledger-id-'));
    await expect(ledger.put(record('../x'))).rejects.toThrow(/Invalid job id/);
  });

  // Fails when an unreadable row is dropped silently (mutation: skip setAsideLine), or told of at every
  // start (mutation: keep the row in the table).
  it('sets a row that is not a job record aside, tells the user once with what it says, and drops it', () => {
    const dir = tempDir('ledger-bad-row-');
    const ledger = openLedger(dir);
    const bad = { ...record('typed'), phase: 42, remoteId: 'svc-7', summary: 'Speech · voice Ava · "Hi"' };
    raw(dir)
      .prepare('INSERT INTO jobs (id, record) VALUES (?, ?), (?, ?)')
      .run('typed', JSON.stringify(bad), 'fine', JSON.stringify(record('fine')));
    const notices: Notice[] = [];
    const read = () =>
      openLedger(dir, { notify: (n) => notices.push(n) })
        .loadAll()
        .map((r) => r.id);
    expect(read()).toEqual(['fine']);
    expect(notices.map((n) => n.title)).toEqual(['A job record could not be read and was set aside']);
    expect(notices[0]?.detail).toMatch(/request: Speech · voice Ava · "Hi"; .*service id: svc-7/);
    expect(readFileSync(join(dir, 'jobs', 'ledger.unreadable.jsonl'), 'utf8')).toContain('svc-7');
    expect(read()).toEqual(['fine']);
    expect(notices).toHaveLength(1);
    ledger.close();
  });
});

describe('a reader beside the owner', () => {
  it('reads the owner’s last commit and cannot write', async () => {
    const dir = tempDir('ledger-reader-');
    const owner = openLedger(dir);
    await owner.put(record('one'));
    const reader = openLedger(dir, { readOnly: true });
    expect(ids(reader.loadAll())).toEqual(['one:submitting']);
    await owner.put(record('two', 'queued'));
    expect(ids(reader.loadAll())).toEqual(['one:submitting', 'two:queued']);
    await expect(reader.put(record('three'))).rejects.toThrow(/only reads/);
    await expect(reader.remove('one')).rejects.toThrow(/only reads/);
    expect(ids(owner.loadAll())).toEqual(['one:submitting', 'two:queued']);
  });

  it('finds no jobs in a folder without a database, and creates none', () => {
    const dir = tempDir('ledger-reader-empty-');
    expect(openLedger(dir, { readOnly: true }).loadAll()).toEqual([]);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(false);
  });

  // Fails when a reader ignores a journal its owner has not taken in yet (mutation: drop overlayJournal):
  // the first `studio jobs list` after the update would show no jobs.
  it('reads the old journal over the database while the owner has not taken it in, and leaves it there', () => {
    const dir = tempDir('ledger-reader-journal-');
    mkdirSync(join(dir, 'jobs'));
    const lines = [putLine(record('a')), putLine(record('b')), putLine(record('a', 'completed')), '{"remove":"b"}'];
    writeFileSync(join(dir, 'jobs', 'ledger.jsonl'), `${lines.join('\n')}\n`);
    expect(ids(openLedger(dir, { readOnly: true }).loadAll())).toEqual(['a:completed']);
    expect(readdirSync(join(dir, 'jobs'))).toEqual(['ledger.jsonl']);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(false);
  });
});
