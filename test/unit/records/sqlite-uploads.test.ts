// The uploader's record of links as the `uploads` table of the folder's records database: looked up by
// storage and hash, a live link reused, an expiring one renewed in place, old entries forgotten by a
// query, and nothing of the uploads held in the process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { openRecords } from '../../../electron/services/records/open-ledger';
import type { StorageBackend, UploadInput } from '../../../electron/services/storage/backend';
import { FORGET_AFTER_MS, LINK_MARGIN_MS, Uploader } from '../../../electron/services/storage/uploader';
import { record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const DAY = 24 * 60 * 60 * 1000;

/** A storage that hands out links valid for `life` ms from `now()`, and counts what it was asked. */
function fakeBackend(now: () => number, life = 7 * DAY) {
  const calls = { upload: 0, relink: 0 };
  let serial = 0;
  const link = (key: string) => ({ url: `https://bucket.test/${key}?sig=${(serial += 1)}`, expiresAt: now() + life });
  const backend: StorageBackend = {
    upload: async (input: UploadInput) => {
      calls.upload += 1;
      return link(input.key);
    },
    relink: async (key) => {
      calls.relink += 1;
      return link(key);
    },
    isCurrent: async () => true,
    test: async () => 'ok',
  };
  return { backend, calls };
}

function setup(clock = { now: 1_800_000_000_000 }) {
  const dir = tempDir('uploads-table-');
  const records = openRecords(dir);
  const now = () => clock.now;
  const { backend, calls } = fakeBackend(now);
  const uploader = new Uploader({ records: records.uploads, backend: async () => backend, now });
  const db = (records.ledger as unknown as { database: { db: InstanceType<typeof Database> } }).database.db;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  return { dir, records, uploader, calls, clock, db, file };
}

const rows = (db: InstanceType<typeof Database>) =>
  db.prepare('SELECT storage_id, hash, url, expires_at FROM uploads ORDER BY storage_id, hash').all() as {
    storage_id: string;
    hash: string;
    url: string;
    expires_at: number | null;
  }[];

describe('the uploads table', () => {
  it('records an upload as one row, and finds it by storage and hash', async () => {
    const { uploader, calls, db, file, records } = setup();
    const first = await uploader.uploadFile(file('a.png', 'picture a'), 's3');
    expect(first.how).toBe('uploaded');
    // Committed with the turn's other changes on the connection (TurnCommits), found before that too.
    expect(records.uploads.find('s3', first.hash)?.url).toBe(first.url);
    await records.uploads.written();
    expect(rows(db)).toEqual([{ storage_id: 's3', hash: first.hash, url: first.url, expires_at: first.expiresAt }]);
    expect(records.uploads.find('s3', first.hash)).toMatchObject({ key: expect.stringMatching(/^[0-9a-f]{16}\//) });
    // Same bytes, another storage: a row of its own, sent again there.
    const elsewhere = await uploader.uploadFile(file('a-copy.png', 'picture a'), 'sandbox');
    expect(elsewhere.how).toBe('uploaded');
    expect(calls.upload).toBe(2);
    await records.uploads.written();
    expect(rows(db).map((r) => r.storage_id)).toEqual(['s3', 'sandbox']);
  });

  it('answers a lookup from the index on (storage, hash), and forgets through the expiry index', () => {
    const { db } = setup();
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT url FROM uploads WHERE storage_id = ? AND hash = ?')).toMatch(
      /USING INDEX sqlite_autoindex_uploads_1 \(storage_id=\? AND hash=\?\)/,
    );
    expect(plan('DELETE FROM uploads WHERE expires_at < ?')).toMatch(/USING (COVERING )?INDEX uploads_by_expiry/);
  });

  it('reuses a live link of the same bytes, even under another name, without sending them', async () => {
    const { uploader, calls, file, clock } = setup();
    const first = await uploader.uploadFile(file('a.png', 'same bytes'), 's3');
    clock.now += DAY;
    const again = await uploader.uploadFile(file('renamed.png', 'same bytes'), 's3');
    expect(again).toMatchObject({ how: 'reused', url: first.url, expiresAt: first.expiresAt });
    expect(calls).toEqual({ upload: 1, relink: 0 });
  });

  it('renews a link about to end in place: the same object, a new link in the same row', async () => {
    const { uploader, calls, file, clock, db, records } = setup();
    const first = await uploader.uploadFile(file('a.png', 'bytes to relink'), 's3');
    clock.now = (first.expiresAt as number) - LINK_MARGIN_MS + 1;
    const renewed = await uploader.uploadFile(file('a.png', 'bytes to relink'), 's3');
    expect(renewed.how).toBe('relinked');
    expect(renewed.url).not.toBe(first.url);
    expect(calls).toEqual({ upload: 1, relink: 1 });
    await records.uploads.written();
    expect(rows(db)).toEqual([{ storage_id: 's3', hash: first.hash, url: renewed.url, expires_at: renewed.expiresAt }]);
    // The row kept its object: renewing again asks for the same key.
    const stored = db.prepare('SELECT object_key, uploaded_at FROM uploads').get() as Record<string, unknown>;
    expect(stored.object_key).toBe(`${first.hash.slice(0, 16)}/a.png`);
  });

  it('forgets entries whose link ended long ago, keeps recent and endless ones', async () => {
    const { uploader, file, clock, db, records } = setup();
    const old = await uploader.uploadFile(file('old.png', 'old'), 's3');
    const start = clock.now;
    records.uploads.remember({ ...old, hash: 'endless', key: 'k', expiresAt: null, uploadedAt: start });
    // Past the old link's end by more than FORGET_AFTER_MS: the next upload's housekeeping deletes it.
    clock.now = (old.expiresAt as number) + FORGET_AFTER_MS + 1;
    const recent = await uploader.uploadFile(file('recent.png', 'recent'), 's3');
    await records.uploads.written();
    expect(
      rows(db)
        .map((r) => r.hash)
        .sort(),
    ).toEqual([recent.hash, 'endless'].sort());
    // An expired entry not yet that old stays: its object can still be re-linked.
    clock.now = (recent.expiresAt as number) + DAY;
    records.uploads.forgetExpiredBefore(clock.now - FORGET_AFTER_MS);
    expect(rows(db).map((r) => r.hash)).toContain(recent.hash);
  });

  it('beside the owner, finds what the owner recorded and writes nothing', async () => {
    const { uploader, file, dir, records } = setup();
    const first = await uploader.uploadFile(file('a.png', 'owner bytes'), 's3');
    await records.uploads.written();
    const reader = openRecords(dir, { readOnly: true }).uploads;
    expect(reader.find('s3', first.hash)?.url).toBe(first.url);
    reader.remember({ ...(reader.find('s3', first.hash) as NonNullable<ReturnType<typeof reader.find>>), url: 'x' });
    expect(reader.find('s3', first.hash)?.url).toBe(first.url);
    // A folder with no database yet: nothing found, nothing thrown.
    const empty = openRecords(tempDir('uploads-none-'), { readOnly: true }).uploads;
    expect(empty.find('s3', first.hash)).toBeNull();
    expect(() => empty.forgetExpiredBefore(0)).not.toThrow();
  });

  // Fails when the upload records set the connection's flushing behind the ledger's back (mutation:
  // `db.exec('PRAGMA synchronous = NORMAL')` in sqlite-uploads.ts instead of setSynchronous): the ledger
  // would still think it flushes, and commit the next paid create's record unflushed.
  it('commits a record unflushed, and leaves the next paid create of the ledger flushed', async () => {
    const { uploader, file, db, records } = setup();
    const level = () => (db.prepare('PRAGMA synchronous').raw().get() as unknown[])[0];
    await records.ledger.put(record('paid-1', 'submitting'));
    expect(level()).toBe(2);
    await uploader.uploadFile(file('a.png', 'between two creates'), 's3');
    await records.uploads.written();
    expect(level()).toBe(1);
    await records.ledger.put(record('paid-2', 'submitting'));
    expect(level()).toBe(2);
  });
});

/**
 * Every object reachable from `root` through properties, array items and Map / Set entries (functions
 * and the database's native handles are not walked: they are the same whatever was uploaded).
 */
function reachable(root: unknown): { objects: number; largest: number } {
  const seen = new Set<object>();
  let largest = 0;
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (value.constructor?.name === 'Database' || value.constructor?.name === 'Statement') return;
    if (value instanceof Map) {
      largest = Math.max(largest, value.size);
      for (const [k, v] of value) {
        walk(k);
        walk(v);
      }
    } else if (value instanceof Set) {
      largest = Math.max(largest, value.size);
      for (const v of value) walk(v);
    } else if (Array.isArray(value)) largest = Math.max(largest, value.length);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) walk(descriptor.value);
    }
  };
  walk(root);
  return { objects: seen.size, largest };
}

describe('a worker making many rows', () => {
  // Fails when the uploader or its records keep anything per upload (mutation: a Map of the entries
  // remembered, in SqliteUploadRecords or in the Uploader): what they hold grows with the rows.
  it('keeps every upload in the table and none in the process', async () => {
    const { uploader, file, db, records } = setup();
    const row = async (n: number) => {
      const paths = ['face', 'title', 'music'].map((part) => file(`${part}-${n}.png`, `${part} of row ${n}`));
      await uploader.uploadAll(paths, 's3');
    };
    for (let n = 0; n < 10; n += 1) await row(n);
    await records.uploads.written();
    const early = reachable({ uploader, uploads: records.uploads });
    for (let n = 10; n < 600; n += 1) await row(n);
    await records.uploads.written();
    const late = reachable({ uploader, uploads: records.uploads });
    expect((db.prepare('SELECT count(*) FROM uploads').raw().get() as number[])[0]).toBe(1800);
    expect(late).toEqual(early);
    expect(late.largest).toBeLessThan(10);
  });
});
