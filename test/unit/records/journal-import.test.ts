import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeOutcome } from '../../../electron/common/bridge';
import type { Notice } from '../../../electron/common/bridge/system';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { composeHost } from '../../../electron/services/host/compose';
import { forEachLine } from '../../../electron/services/jobs/ledger-read';
import { openRecordsDatabase } from '../../../electron/services/records/database';
import { importProgressLines } from '../../../electron/services/records/import-progress';
import { importJournal, type ImportProgress } from '../../../electron/services/records/journal-import';
import { JOB_INDEXES } from '../../../electron/services/records/schema';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { putLine, record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const SET_ASIDE = 'A job record could not be read and was set aside';

function writeJournal(dir: string, text: string): string {
  mkdirSync(join(dir, 'jobs'), { recursive: true });
  const path = join(dir, 'jobs', 'ledger.jsonl');
  writeFileSync(path, text);
  return path;
}

const ids = (records: { id: string; phase: string }[]) => records.map((r) => `${r.id}:${r.phase}`).sort();

describe('taking the old journal in', () => {
  // Fails when a torn last line is read (mutation: deliver the text after the last newline) or when
  // older lines win (mutation: INSERT OR IGNORE).
  it('keeps the newest line of each job, drops removed jobs and a torn last line, and sets the journal aside', () => {
    const dir = tempDir('import-');
    const lines = [
      putLine(record('a', 'submitting')),
      putLine(record('b', 'queued')),
      putLine(record('a', 'queued')),
      putLine(record('c', 'processing')),
      '{"remove":"c"}',
      putLine(record('a', 'completed')),
    ];
    writeJournal(dir, `${lines.join('\n')}\n{"put":{"id":"torn","kind":"tts","pha`);
    const progress: ImportProgress[] = [];
    const notices: Notice[] = [];
    const ledger = openLedger(dir, { onImport: (p) => progress.push(p), notify: (n) => notices.push(n) });
    expect(ids(ledger.loadAll())).toEqual(['a:completed', 'b:queued']);
    expect(notices).toEqual([]);
    // Renamed, not deleted, and only that: nothing else is left in the jobs folder.
    expect(readdirSync(join(dir, 'jobs'))).toEqual(['ledger.jsonl.imported']);
    expect(readFileSync(join(dir, 'jobs', 'ledger.jsonl.imported'), 'utf8')).toContain('"torn"');
    expect(progress.at(-1)).toMatchObject({ rows: 6, done: true });
    expect(progress.at(-1)?.bytes).toBe(progress.at(-1)?.totalBytes);
    // A second start finds nothing to take in and the same jobs.
    expect(ids(openLedger(dir).loadAll())).toEqual(['a:completed', 'b:queued']);
  });

  // Fails when a damaged line is dropped silently (mutation: skip setAsideLine), or reported again when
  // an interrupted import runs again (mutation: drop the "already kept" check).
  it('keeps damaged lines aside and tells the user once, with what can still be read of the paid job', () => {
    const dir = tempDir('import-damaged-');
    const typed = JSON.stringify({
      put: {
        ...record('typed'),
        phase: 42,
        remoteId: 'svc-123',
        resultUrl: 'https://files.example/r.mp4',
        summary: 'Speech · voice Ava · "Hi"',
      },
    });
    const cut = '{"put":{"id":"cut","kind":"lipsync","remoteId":"svc-\\"9","createdAt":1763800000000,"resultUr';
    const text = `${putLine(record('first'))}\n\u0000\u0000garbage{\n${typed}\n${cut}\n${putLine(record('fine'))}\n`;
    writeJournal(dir, text);
    const notices: Notice[] = [];
    const notify = (n: Notice) => notices.push(n);
    // An import that ran once already (killed before its end) saw the same lines: they are told once.
    importJournal(openRecordsDatabase({ dataDir: dir }), dir, { notify });
    writeJournal(dir, text);
    expect(ids(openLedger(dir, { notify }).loadAll())).toEqual(['fine:submitting', 'first:submitting']);
    expect(notices.every((n) => n.title === SET_ASIDE)).toBe(true);
    const details = notices.map((n) => n.detail ?? '');
    expect(details).toHaveLength(3);
    expect(details.find((d) => d.includes('svc-123'))).toMatch(
      /request: Speech · voice Ava · "Hi"; sent to: .*service id: svc-123; result: https:\/\/files\.example\/r\.mp4/,
    );
    expect(details.find((d) => d.includes('lipsync'))).toMatch(
      /kind: lipsync; service id: svc-\\"9; created: 2025-11-22T/,
    );
    expect(
      readFileSync(join(dir, 'jobs', 'ledger.unreadable.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(3);
  });

  // Fails when the journal is set aside before the last transaction commits (mutation: rename first):
  // the jobs after the interruption would be lost for good.
  it('leaves the journal in place when interrupted half way, and the next start ends with every job once', () => {
    const dir = tempDir('import-resume-');
    const jobs = Array.from({ length: 50 }, (_, i) => record(`job-${i}`, 'queued', i));
    const lines = [...jobs.map(putLine), ...jobs.map((j) => putLine({ ...j, phase: 'completed' }))];
    writeJournal(dir, `${lines.join('\n')}\n`);
    const database = openRecordsDatabase({ dataDir: dir });
    const crash = new Error('killed half way');
    expect(() =>
      importJournal(database, dir, {
        rowsPerTransaction: 20,
        progress: (p) => {
          if (p.rows >= 60) throw crash;
        },
      }),
    ).toThrow(crash);
    database.close();
    expect(existsSync(join(dir, 'jobs', 'ledger.jsonl'))).toBe(true);
    const partial = openLedger(dir, { readOnly: true });
    // The reader sees the whole journal over the half-written database.
    expect(partial.loadAll()).toHaveLength(50);
    const ledger = openLedger(dir);
    const loaded = ledger.loadAll();
    expect(loaded).toHaveLength(50);
    expect(new Set(loaded.map((j) => j.id)).size).toBe(50);
    expect(loaded.every((j) => j.phase === 'completed')).toBe(true);
    expect(readdirSync(join(dir, 'jobs'))).toEqual(['ledger.jsonl.imported']);
  });

  // Fails when the indexes are dropped whatever the table holds (as they were while the emptiness check
  // read libsql's whole row, always true): a journal written by a downgrade, taken into a table of a
  // million jobs, then rebuilt every index from nothing.
  it('keeps the indexes of a table that holds jobs already, and sets them aside only for an empty one', () => {
    const dir = tempDir('studio-import-indexes-');
    const indexesDuringImport = (): string[][] => {
      const seen: string[][] = [];
      const database = openRecordsDatabase({ dataDir: dir });
      try {
        const names = () =>
          (database.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").raw().all() as [string][])
            .map(([name]) => name)
            .filter((name) => name in JOB_INDEXES);
        importJournal(database, dir, { rowsPerTransaction: 1, progress: (p) => !p.done && seen.push(names()) });
      } finally {
        database.close();
      }
      return seen;
    };
    writeJournal(dir, [record('a', 'completed'), record('b', 'completed')].map(putLine).join('\n') + '\n');
    expect(indexesDuringImport().every((names) => names.length === 0)).toBe(true);
    writeJournal(dir, [record('c', 'completed')].map(putLine).join('\n') + '\n');
    const kept = indexesDuringImport();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((names) => names.length === Object.keys(JOB_INDEXES).length)).toBe(true);
  });

  it('keeps an earlier imported journal when a newer one is taken in', () => {
    const dir = tempDir('import-twice-');
    writeJournal(dir, `${putLine(record('old'))}\n`);
    openLedger(dir).close();
    writeJournal(dir, `${putLine(record('new'))}\n`);
    expect(ids(openLedger(dir).loadAll())).toEqual(['new:submitting', 'old:submitting']);
    expect(readdirSync(join(dir, 'jobs')).sort()).toEqual(['ledger.jsonl.imported', 'ledger.jsonl.imported.2']);
  });
});

describe('reading a journal a line at a time', () => {
  // Fails when a character split across two reads is decoded half by half (mutation: decode each chunk).
  it('joins lines and characters cut at the edge of a read, and reports the bytes read to each line’s end', () => {
    const dir = tempDir('lines-');
    const path = join(dir, 'big.jsonl');
    // The first read ends (at 1 MiB) one byte into the second line's first character, which takes three.
    const lines = [
      'a'.repeat((1 << 20) - 2),
      `${'€'.repeat(5)} second`,
      ...Array.from({ length: 900 }, (_, i) => `${i}:${'€'.repeat(400 + (i % 7))}`),
    ];
    writeFileSync(path, `${lines.join('\n')}\n`);
    const seen: string[] = [];
    let lastBytes = 0;
    forEachLine(path, (line, bytes) => {
      seen.push(line);
      lastBytes = bytes;
    });
    expect(seen).toEqual(lines);
    expect(lastBytes).toBe(Buffer.byteLength(`${lines.join('\n')}\n`));
  });
});

describe('a host started on a folder of an earlier version', () => {
  // Fails when a host's progress callback is not passed down to the ledger (mutation: drop onImport in
  // createDomains): a long first start would say nothing.
  it('takes the journal in before it lists jobs, printing its progress', async () => {
    const dir = tempDir('import-host-');
    writeJournal(dir, `${putLine(record('a', 'completed'))}\n${putLine(record('b', 'failed'))}\n`);
    const lines: string[] = [];
    const host = composeHost({
      host: 'web',
      appVersion: 'test',
      dataDir: dir,
      createVault: () => new EnvVault({}),
      platform: {},
      createStoreFactory: createConfStoreFactory,
      startSandbox: () => Promise.reject(new Error('no sandbox in this test')),
      onImport: importProgressLines((line) => lines.push(line)),
    });
    try {
      const listed = (await host.dispatch('jobs.list', [])) as BridgeOutcome<{ id: string }[]>;
      expect(listed.ok && listed.value.map((j) => j.id).sort()).toEqual(['a', 'b']);
      expect(lines[0]).toMatch(/^Taking the job journal into the database: 100% \(2 changes\)/);
      expect(lines.at(-1)).toBe('Job records taken into the database: 2 changes.');
      expect(readdirSync(join(dir, 'jobs'))).toEqual(['ledger.jsonl.imported']);
    } finally {
      await host.dispose();
    }
  });
});
