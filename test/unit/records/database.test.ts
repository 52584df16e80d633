import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeOutcome } from '../../../electron/common/bridge';
import type { Notice } from '../../../electron/common/bridge/system';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { composeHost } from '../../../electron/services/host/compose';
import { DATABASE_FILE, openRecordsDatabase } from '../../../electron/services/records/database';
import { SCHEMA_VERSION } from '../../../electron/services/records/schema';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const SET_ASIDE = "The studio's records could not be read and were set aside";
const garbage = (dir: string) => writeFileSync(join(dir, DATABASE_FILE), Buffer.alloc(16_384, 0x5a));
/** The databases set aside (their companions, `-wal` and `-shm`, moved beside them). */
const setAside = (dir: string) =>
  readdirSync(dir).filter((f) => f.startsWith(`${DATABASE_FILE}.unreadable-`) && !/-(wal|shm)$/.test(f));

describe('the records database', () => {
  it('is built at the current schema once, and opened again as it is', () => {
    const dir = tempDir('records-schema-');
    openRecordsDatabase({ dataDir: dir }).close();
    const db = new Database(join(dir, DATABASE_FILE));
    expect((db.prepare('PRAGMA user_version').raw().get() as unknown[])[0]).toBe(SCHEMA_VERSION);
    db.close();
    const again = openRecordsDatabase({ dataDir: dir });
    expect(again.db.prepare('SELECT count(*) AS n FROM jobs').get()).toMatchObject({ n: 0 });
    again.close();
  });

  // Fails when an unreadable file stops the studio (mutation: drop setAside and rethrow) or is deleted
  // or overwritten rather than kept (mutation: unlink it).
  it('sets a file that is not a database aside, tells the user, and starts afresh', async () => {
    const dir = tempDir('records-garbage-');
    garbage(dir);
    const notices: Notice[] = [];
    const ledger = openLedger(dir, { notify: (n) => notices.push(n) });
    expect(ledger.loadAll()).toEqual([]);
    await ledger.put(record('new'));
    expect(
      openLedger(dir, { readOnly: true })
        .loadAll()
        .map((r) => r.id),
    ).toEqual(['new']);
    const [moved] = setAside(dir);
    expect(readFileSync(join(dir, moved as string))).toEqual(Buffer.alloc(16_384, 0x5a));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: 'warning', title: SET_ASIDE });
    expect(notices[0]?.detail).toContain(join(dir, moved as string));
  });

  it('sets aside a database written by a newer version, saying so', () => {
    const dir = tempDir('records-newer-');
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const notices: Notice[] = [];
    openLedger(dir, { notify: (n) => notices.push(n) }).close();
    expect(setAside(dir)).toHaveLength(1);
    expect(notices[0]?.detail).toMatch(/newer version of the studio/);
  });

  // Fails when a reader queries a database whose owner has not committed its tables yet (mutation: drop
  // the version check in openToRead): "no such table" would end the command.
  it('reads as empty for a reader while its owner has only just created it', () => {
    const dir = tempDir('records-reader-new-');
    new Database(join(dir, DATABASE_FILE)).exec('PRAGMA journal_mode = WAL');
    expect(openLedger(dir, { readOnly: true }).loadAll()).toEqual([]);
  });

  it('is left alone by a reader that cannot read it: the reader has no jobs and says why', () => {
    const dir = tempDir('records-reader-garbage-');
    garbage(dir);
    const notices: Notice[] = [];
    expect(openLedger(dir, { readOnly: true, notify: (n) => notices.push(n) }).loadAll()).toEqual([]);
    expect(notices.map((n) => n.title)).toEqual(["The studio's records could not be read"]);
    expect(setAside(dir)).toEqual([]);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(true);
  });
});

describe('a host whose records database cannot be read', () => {
  // Fails when the host cannot start beside an unreadable database (mutation: throw from openRecordsDatabase).
  it('still starts, lists no jobs and shows the notice', async () => {
    const dir = tempDir('records-host-');
    garbage(dir);
    const host = composeHost({
      host: 'web',
      appVersion: 'test',
      dataDir: dir,
      createVault: () => new EnvVault({}),
      platform: {},
      createStoreFactory: createConfStoreFactory,
      startSandbox: () => Promise.reject(new Error('no sandbox in this test')),
    });
    try {
      const listed = (await host.dispatch('jobs.list', [])) as BridgeOutcome<unknown[]>;
      expect(listed).toEqual({ ok: true, value: [] });
      expect(host.base.notices.takePending().map((n) => n.title)).toContain(SET_ASIDE);
      expect(setAside(dir)).toHaveLength(1);
    } finally {
      await host.dispose();
    }
  });
});
