// The first start after the update takes the old record of uploads (uploads.json, a record store's file)
// into the records database once, keeps the file under another name, and survives a kill half way and a
// file it cannot read.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { createDomains } from '../../../electron/services/host/domains';
import { DATABASE_FILE } from '../../../electron/services/records/database';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { UPLOADS_RECORD } from '../../../electron/services/records/uploads-import';
import type { UploadEntry } from '../../../electron/services/storage/upload-records';
import { runImportChild } from './kill-half-way';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

function entry(n: number, extra: Partial<UploadEntry> = {}): UploadEntry {
  return {
    storageId: n % 2 === 0 ? 's3' : 'sandbox',
    hash: `hash-${n}`,
    key: `hash-${n}/row-${n}.png`,
    url: `https://bucket.test/hash-${n}/row-${n}.png?sig=1`,
    expiresAt: 1_900_000_000_000 + n,
    sizeBytes: 1000 + n,
    fileName: `row-${n}.png`,
    uploadedAt: 1_800_000_000_000 + n,
    ...extra,
  };
}

/** The file as the record store wrote it (`{ version, data }`), entries in the order they were added. */
function writeOldRecord(dir: string, entries: unknown[]): void {
  writeFileSync(join(dir, UPLOADS_RECORD), JSON.stringify({ version: 1, data: { entries } }));
}

function tableOf(dir: string) {
  const db = new Database(join(dir, DATABASE_FILE));
  try {
    return db.prepare('SELECT storage_id, hash, url FROM uploads ORDER BY hash').all() as {
      storage_id: string;
      hash: string;
      url: string;
    }[];
  } finally {
    db.close();
  }
}

describe('taking the old record of uploads in', () => {
  it('puts every entry in the table once, the newest of the same bytes, and keeps the file aside', () => {
    const dir = tempDir('uploads-import-');
    // hash-1 was relinked later: the record dropped the old entry and appended the new one; a copy
    // left behind (as an old bug or a hand edit could) must not win over the newer.
    writeOldRecord(dir, [entry(1, { url: 'old-link' }), entry(0), entry(2), entry(1, { url: 'new-link' })]);
    const log = new MemoryLogger();
    const { uploads } = openRecords(dir, { log });
    expect(uploads.find('sandbox', 'hash-1')?.url).toBe('new-link');
    expect(uploads.find('s3', 'hash-2')).toEqual(entry(2));
    expect(tableOf(dir).map((r) => r.hash)).toEqual(['hash-0', 'hash-1', 'hash-2']);
    expect(existsSync(join(dir, UPLOADS_RECORD))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, `${UPLOADS_RECORD}.imported`), 'utf8')).data.entries).toHaveLength(4);
    // Once: the next start finds no file and leaves the table as it is.
    openRecords(dir, { log });
    expect(tableOf(dir)).toHaveLength(3);
  });

  it('skips entries that are not entries, and never puts an older link over a row written since', async () => {
    const dir = tempDir('uploads-import-again-');
    writeOldRecord(dir, [entry(0), { hash: 'no storage' }, 'junk', entry(1)]);
    const { uploads } = openRecords(dir);
    expect(tableOf(dir).map((r) => r.hash)).toEqual(['hash-0', 'hash-1']);
    uploads.remember(entry(0, { url: 'renewed' }));
    await uploads.written();
    // An older version run meanwhile wrote a new file with its stale link: taken in beside, not over.
    writeOldRecord(dir, [entry(0, { url: 'stale' }), entry(5)]);
    openRecords(dir);
    expect(tableOf(dir).find((r) => r.hash === 'hash-0')?.url).toBe('renewed');
    expect(tableOf(dir).map((r) => r.hash)).toEqual(['hash-0', 'hash-1', 'hash-5']);
    expect(readdirSync(dir).filter((f) => f.startsWith(UPLOADS_RECORD))).toEqual([
      'uploads.json.imported',
      'uploads.json.imported.2',
    ]);
  });

  it.each([
    ['not JSON', '{"version":1,"data":{"entries":[{"storageId":'],
    ['another shape', JSON.stringify({ version: 1, data: { links: [] } })],
    ['a newer version', JSON.stringify({ version: 2, data: { entries: [] } })],
  ])('sets a file that is %s aside with a log line, and the studio starts', (_, text) => {
    const dir = tempDir('uploads-import-bad-');
    writeFileSync(join(dir, UPLOADS_RECORD), text);
    const log = new MemoryLogger();
    const { uploads } = openRecords(dir, { log });
    expect(uploads.find('s3', 'hash-0')).toBeNull();
    const aside = readdirSync(dir).filter((f) => f.startsWith(`${UPLOADS_RECORD}.unreadable-`));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0] as string), 'utf8')).toBe(text);
    expect(existsSync(join(dir, UPLOADS_RECORD))).toBe(false);
    expect(log.lines.some((e) => e.level === 'warn' && /record of uploads unreadable/.test(e.message))).toBe(true);
  });

  it('is done by the host that owns the folder, never by one that only reads', async () => {
    const dir = tempDir('uploads-import-host-');
    writeOldRecord(dir, [entry(0)]);
    const reader = createDomains(createMemoryHostBase({ dataDir: dir }), { start: 'read-only' });
    await reader.disposeAll();
    expect(existsSync(join(dir, UPLOADS_RECORD))).toBe(true);
    const owner = createDomains(createMemoryHostBase({ dataDir: dir }), { start: 'follow' });
    await owner.disposeAll();
    expect(existsSync(join(dir, UPLOADS_RECORD))).toBe(false);
    expect(tableOf(dir).map((r) => r.hash)).toEqual(['hash-0']);
  });
});

const ENTRIES = 20_000;

const runChild = (dir: string, args: string[], until: string, kill: boolean) =>
  runImportChild('uploads-import-child.ts', dir, args, until, kill);

describe('a studio killed while it takes the old record of uploads in', () => {
  // Fails when the file is set aside before its last entries are committed (mutation: rename it
  // first): the entries the killed start had not reached would be gone. Fails too when a replay
  // inserts over the rows already there (mutation: a plain INSERT): the next start cannot open.
  it('leaves the file in place, and the next start ends with every entry exactly once', async () => {
    const dir = tempDir('uploads-import-kill-');
    // Each entry's bytes uploaded twice (a relink): the later one is the one to keep.
    const entries = Array.from({ length: ENTRIES }, (_, n) => entry(n));
    writeOldRecord(dir, [...entries.slice(0, 1000).map((e) => ({ ...e, url: 'superseded' })), ...entries]);

    const half = await runChild(dir, ['pause', String(ENTRIES / 2)], 'half ', true);
    expect(Number(half.split(' ')[1])).toBeGreaterThanOrEqual(ENTRIES / 2);
    const atKill = tableOf(dir).length;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(ENTRIES);
    expect(existsSync(join(dir, UPLOADS_RECORD))).toBe(true);

    expect(await runChild(dir, [], 'done ', false)).toBe(`done ${ENTRIES}`);
    const rows = tableOf(dir);
    expect(rows).toHaveLength(ENTRIES);
    expect(new Set(rows.map((r) => `${r.storage_id}/${r.hash}`)).size).toBe(ENTRIES);
    expect(rows.filter((r) => r.url === 'superseded')).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.startsWith(UPLOADS_RECORD))).toEqual(['uploads.json.imported']);
  }, 120_000);
});
