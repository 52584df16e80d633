// The first start after the update takes the old download queue (queue.json and its journal, and the
// command line's cli-queue.json of earlier versions) into the records database once, keeps the files
// under another name, and survives a kill half way and a file it cannot read.
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliQueueFile, queueFile } from '../../../electron/services/downloads/queue-file';
import { createDomains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { download, downloadRows, writeOldQueue } from './download-fixtures';
import { runImportChild } from './kill-half-way';
import { removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const files = (dir: string) => readdirSync(join(dir, 'downloads')).sort();

describe('taking the old download queues in', () => {
  it('reads each queue with its journal as its store did, puts every entry in once, and keeps the files aside', async () => {
    const dir = tempDir('downloads-import-');
    // Generation 2: a line of generation 1 (left by a crash before the last rewrite) is older than the file.
    writeOldQueue(queueFile(dir), [download(1), download(2)], 2, [
      [1, download(1, { state: 'missing' })],
      [2, download(2, { state: 'changed' })],
      [2, download(3)],
    ]);
    writeOldQueue(cliQueueFile(dir), [download(9, { origin: 'cli' })]);
    const log = new MemoryLogger();
    const { downloads } = openRecords(dir, { log });
    expect((await downloads.reader.entries('studio')).map((e) => [e.id, e.state])).toEqual([
      ['d-1', 'saved'],
      ['d-2', 'changed'],
      ['d-3', 'saved'],
    ]);
    expect((await downloads.reader.entries('cli')).map((e) => e.id)).toEqual(['d-9']);
    expect(files(dir)).toEqual(['cli-queue.json.imported', 'queue.json.imported', 'queue.json.journal.imported']);
    // Once: the next start finds no file and leaves the table as it is.
    openRecords(dir, { log });
    expect(downloadRows(dir)).toHaveLength(4);
  });

  // The journal goes aside first, so a kill between the renames leaves the file alone. Fails when a
  // replay writes over the rows already there (mutation: ADD_DOWNLOAD an INSERT OR REPLACE): the file's
  // older entry would then replace the journal's newer one.
  it('killed between the two renames, the next start keeps the journal’s newer entries', () => {
    const dir = tempDir('downloads-import-renames-');
    writeOldQueue(queueFile(dir), [download(1)], 0, [[0, download(1, { state: 'missing' })]]);
    openRecords(dir);
    // As a kill after the journal was renamed and before its file was: the file is back in place.
    renameSync(`${queueFile(dir)}.imported`, queueFile(dir));
    openRecords(dir);
    expect(downloadRows(dir).map((r) => [r.id, r.state])).toEqual([['d-1', 'missing']]);
    expect(files(dir)).toEqual(['queue.json.imported', 'queue.json.journal.imported']);
  });

  it.each([
    ['not JSON', '{"version":1,"entries":[{"id":'],
    ['another shape', JSON.stringify({ version: 1, downloads: [] })],
    ['a newer version', JSON.stringify({ version: 2, entries: [] })],
  ])('sets a queue that is %s aside with its journal and a log line, and the studio starts', async (_, text) => {
    const dir = tempDir('downloads-import-bad-');
    writeOldQueue(queueFile(dir), text, 0, [[0, download(1)]]);
    const log = new MemoryLogger();
    const base = createMemoryHostBase({ dataDir: dir, log });
    const domains = createDomains(base, { start: 'follow' });
    expect(await domains.handlers['downloads.ofJobs']([download(1).jobId])).toEqual([]);
    await domains.disposeAll();
    const aside = files(dir).filter((f) => f.startsWith('queue.json.unreadable-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, 'downloads', aside[0] as string), 'utf8')).toBe(text);
    expect(files(dir).filter((f) => f.startsWith('queue.json.journal.unreadable-'))).toHaveLength(1);
    expect(existsSync(queueFile(dir))).toBe(false);
    expect(log.lines.some((e) => e.level === 'warn' && /download queue unreadable/.test(e.message))).toBe(true);
  });

  it('is done by the host that owns the folder, never by one that only reads', async () => {
    const dir = tempDir('downloads-import-host-');
    writeOldQueue(queueFile(dir), [download(1)]);
    const reader = createDomains(createMemoryHostBase({ dataDir: dir }), { start: 'read-only' });
    await reader.disposeAll();
    expect(existsSync(queueFile(dir))).toBe(true);
    const owner = createDomains(createMemoryHostBase({ dataDir: dir }), { start: 'follow' });
    expect((await owner.handlers['downloads.ofJobs']([download(1).jobId])).map((d) => d.id)).toEqual(['d-1']);
    await owner.disposeAll();
    expect(existsSync(queueFile(dir))).toBe(false);
    expect(downloadRows(dir).map((r) => r.id)).toEqual(['d-1']);
  });
});

const ENTRIES = 20_000;

const runChild = (dir: string, args: string[], until: string, kill: boolean) =>
  runImportChild('downloads-import-child.ts', dir, args, until, kill);

describe('a studio killed while it takes the old download queue in', () => {
  // Fails when the file is set aside before its last entries are committed (mutation: rename it
  // first): the entries the killed start had not reached would be gone. Fails too when a replay
  // inserts over the rows already there as new rows (mutation: a plain INSERT): the next start cannot open.
  it('leaves the files in place, and the next start ends with every entry exactly once', async () => {
    const dir = tempDir('downloads-import-kill-');
    const entries = Array.from({ length: ENTRIES }, (_, n) => download(n));
    writeOldQueue(queueFile(dir), entries, 1, [[1, download(0, { state: 'missing' })]]);

    const half = await runChild(dir, ['pause', String(ENTRIES / 2)], 'half ', true);
    expect(Number(half.split(' ')[1])).toBeGreaterThanOrEqual(ENTRIES / 2);
    const atKill = downloadRows(dir).length;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(ENTRIES);
    expect(files(dir)).toEqual(['queue.json', 'queue.json.journal']);

    expect(await runChild(dir, [], 'done ', false)).toBe(`done ${ENTRIES}`);
    const rows = downloadRows(dir);
    expect(rows).toHaveLength(ENTRIES);
    expect(new Set(rows.map((r) => r.id)).size).toBe(ENTRIES);
    expect(rows.find((r) => r.id === 'd-0')?.state).toBe('missing');
    expect(files(dir)).toEqual(['queue.json.imported', 'queue.json.journal.imported']);
  }, 120_000);
});
