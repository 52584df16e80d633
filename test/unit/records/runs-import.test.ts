// The first start after the update takes the runs earlier versions kept as files (a snapshot and a
// journal of row changes each, in `campaigns/` and `batches/`) into the records database once, keeps
// the files under another name, survives a kill half way, and leaves a file it cannot read as it is.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notice } from '@common/bridge/system';
import { createDomains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { runImportChild } from './kill-half-way';
import { removeTempDirs, tempDir } from './ledger-fixtures';
import { runRowCount, runsInTable, writeOldRun } from './runs-fixtures';

afterEach(removeTempDirs);

const files = (dir: string, kind: string) => readdirSync(join(dir, kind)).sort();

describe('taking the old run files in', () => {
  it('reads each run as its journal did, puts every run and row in once, and keeps the files aside', async () => {
    const dir = tempDir('runs-import-');
    writeOldRun(dir, {
      kind: 'campaigns',
      id: 'c1',
      rows: 3,
      folded: 4,
      lines: [
        // At or below the snapshot's number: already in it (an older change, not applied over it).
        [4, { row: 0, state: 'folded-already' }],
        [5, { row: 1, state: 'video' }],
        [6, { row: 3, state: 'pending' }],
        [7, { row: 1, state: 'done' }],
      ],
      torn: true,
    });
    writeOldRun(dir, { kind: 'batches', id: 'b1', rows: 2, createdAt: 5 });
    const log = new MemoryLogger();
    const { runs } = openRecords(dir, { log });
    expect(runsInTable(dir)).toEqual([
      ['batches', 'b1', ['0:pending', '1:pending']],
      ['campaigns', 'c1', ['0:pending', '1:done', '2:pending', '3:pending']],
    ]);
    const run = await runs
      .of('campaigns', (raw) => raw as { id: string; createdAt: number; rows: { row: number }[] })
      .get('c1');
    // The file's own bookkeeping stays behind; the run's fields come through.
    expect(run).toMatchObject({ id: 'c1', createdAt: 1, state: 'running' });
    expect(run).not.toHaveProperty('journalSeq');
    expect(files(dir, 'campaigns')).toEqual(['c1.json.imported', 'c1.rows.jsonl.imported']);
    expect(files(dir, 'batches')).toEqual(['b1.json.imported']);
    // Once: the next start finds no file and leaves the tables as they are.
    openRecords(dir, { log });
    expect(runRowCount(dir)).toBe(6);
  });

  // The journal goes aside first, so a kill between the renames leaves the snapshot alone. Fails when a
  // replay writes over a run already there (mutation: no HAS_RUN check): the snapshot's older rows
  // would then replace the journal's newer ones.
  it('killed between the two renames, the next start keeps the journal’s newer rows', () => {
    const dir = tempDir('runs-import-renames-');
    writeOldRun(dir, { kind: 'batches', id: 'b1', rows: 1, lines: [[1, { row: 0, state: 'done' }]] });
    openRecords(dir);
    renameSync(join(dir, 'batches', 'b1.json.imported'), join(dir, 'batches', 'b1.json'));
    openRecords(dir);
    expect(runsInTable(dir)).toEqual([['batches', 'b1', ['0:done']]]);
    expect(files(dir, 'batches')).toEqual(['b1.json.imported', 'b1.rows.jsonl.imported']);
  });

  it.each([
    ['not JSON', '{"id":"bad","rows":[{"row":'],
    ['rows that are not a list', JSON.stringify({ id: 'bad', createdAt: 1, rows: {} })],
  ])('leaves a snapshot of %s as it is, names it, takes the others in, and takes it in once mended', (_, text) => {
    const dir = tempDir('runs-import-bad-');
    writeOldRun(dir, { kind: 'campaigns', id: 'good', rows: 1 });
    writeFileSync(join(dir, 'campaigns', 'bad.json'), text);
    const log = new MemoryLogger();
    const notices: Notice[] = [];
    openRecords(dir, { log, notify: (notice) => notices.push(notice) });
    expect(runsInTable(dir).map(([, id]) => id)).toEqual(['good']);
    expect(readFileSync(join(dir, 'campaigns', 'bad.json'), 'utf8')).toBe(text);
    const path = join(dir, 'campaigns', 'bad.json');
    expect(log.lines.some((l) => l.level === 'warn' && String(l.fields?.reason).includes(path))).toBe(true);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.detail).toContain(`The campaign record ${path} is not valid`);
    expect(notices[0]?.detail).toContain('left as it is');

    writeOldRun(dir, { kind: 'campaigns', id: 'bad', rows: 2 });
    openRecords(dir);
    expect(runsInTable(dir).map(([, id, rows]) => [id, rows.length])).toEqual([
      ['bad', 2],
      ['good', 1],
    ]);
    expect(files(dir, 'campaigns')).toEqual(['bad.json.imported', 'good.json.imported']);
  });

  // Through a host as it starts: the batch an older studio kept as files is on the Batches page, read
  // with the kind's own schema (the files' journalSeq gone, the journal's newer row applied).
  it('leaves a batch of an earlier version on the Batches page of the host that took it in', async () => {
    const dir = tempDir('runs-import-host-');
    const row = (n: number, state: string) => ({
      row: n,
      text: `Line ${n}`,
      voiceId: 'v1',
      rate: '100%',
      name: null,
      state,
    });
    const batch = {
      version: 1,
      id: 'old-batch',
      label: 'lines.csv',
      createdAt: 1_700_000_000_000,
      rows: [row(0, 'done'), row(1, 'speech')],
      invalid: [],
      state: 'finished',
      concurrency: 4,
      retry: [],
      template: '{row}',
      journalSeq: 3,
    };
    mkdirSync(join(dir, 'batches'), { recursive: true });
    writeFileSync(join(dir, 'batches', 'old-batch.json'), JSON.stringify(batch));
    writeFileSync(
      join(dir, 'batches', 'old-batch.rows.jsonl'),
      `${JSON.stringify({ seq: 4, row: row(1, 'failed') })}\n`,
    );
    const domains = createDomains(createMemoryHostBase({ dataDir: dir }), { start: 'follow' });
    expect((await domains.handlers['batches.list']()).map((b) => [b.id, b.state, b.total])).toEqual([
      ['old-batch', 'finished', 2],
    ]);
    const page = await domains.handlers['batches.rows']('old-batch', { offset: 0, limit: 500, filter: 'all' });
    expect(page.rows.map((r) => r.row)).toEqual([0, 1]);
    await domains.disposeAll();
    expect(files(dir, 'batches')).toEqual(['old-batch.json.imported', 'old-batch.rows.jsonl.imported']);
    expect(runsInTable(dir)).toEqual([['batches', 'old-batch', ['0:done', '1:failed']]]);
  });

  // A reader beside an owner that has not started since the update reads the files as the import will.
  it('is done by the folder’s owner, never by a command that only reads beside it, which reads the files meanwhile', async () => {
    type Plain = { id: string; createdAt: number; state: string; rows: { row: number; state: string }[] };
    const plain = (raw: unknown) => raw as Plain;
    const none = tempDir('runs-import-no-database-');
    writeOldRun(none, { kind: 'batches', id: 'b0', rows: 2, lines: [[1, { row: 1, state: 'done' }]] });
    const before = openRecords(none, { readOnly: true }).runs.of('batches', plain);
    expect((await before.get('b0'))?.rows.map((r) => r.state)).toEqual(['pending', 'done']);
    expect(existsSync(join(none, 'records.db'))).toBe(false);

    const dir = tempDir('runs-import-reader-');
    writeOldRun(dir, { kind: 'batches', id: 'b1', rows: 1, createdAt: 1 });
    openRecords(dir).ledger.close();
    writeOldRun(dir, { kind: 'batches', id: 'b2', rows: 1, createdAt: 2, lines: [[1, { row: 0, state: 'done' }]] });
    const reader = openRecords(dir, { readOnly: true }).runs.of('batches', plain);
    expect(existsSync(join(dir, 'batches', 'b2.json'))).toBe(true);
    expect(runsInTable(dir).map(([, id]) => id)).toEqual(['b1']);
    expect((await reader.list()).map((r) => [r.id, r.rows[0]?.state])).toEqual([
      ['b2', 'done'],
      ['b1', 'pending'],
    ]);
    expect(await reader.get('b3')).toBeNull();
  });
});

const RUNS = 40;
const ROWS = 250;

const runChild = (dir: string, args: string[], until: string, kill: boolean) =>
  runImportChild('runs-import-child.ts', dir, args, until, kill);

describe('a studio killed while it takes the old run files in', () => {
  // Fails when a run's files are set aside before its rows are committed (mutation: rename them
  // first): the runs the killed start had not committed would be gone. Fails too when a replay puts a
  // run in again over its rows (mutation: no HAS_RUN check, a plain INSERT): the next start cannot open.
  it('leaves the files of runs not yet in, and the next start ends with every run and row exactly once', async () => {
    const dir = tempDir('runs-import-kill-');
    for (let n = 0; n < RUNS; n += 1)
      writeOldRun(dir, {
        kind: n % 2 === 0 ? 'campaigns' : 'batches',
        id: `run-${String(n).padStart(2, '0')}`,
        rows: ROWS,
        createdAt: n,
        folded: 2,
        lines: [
          [2, { row: 0, state: 'older' }],
          [3, { row: 0, state: 'done' }],
        ],
      });

    const half = await runChild(dir, ['pause', String((RUNS * ROWS) / 2)], 'half ', true);
    expect(Number(half.split(' ')[1])).toBeGreaterThanOrEqual((RUNS * ROWS) / 2);
    const atKill = runsInTable(dir).length;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(RUNS);
    const left = [...files(dir, 'campaigns'), ...files(dir, 'batches')].filter((f) => f.endsWith('.json'));
    expect(left).toHaveLength(RUNS - atKill);

    expect(await runChild(dir, [], 'done ', false)).toBe(`done ${RUNS} ${RUNS * ROWS}`);
    expect(runRowCount(dir)).toBe(RUNS * ROWS);
    const table = runsInTable(dir);
    expect(new Set(table.map(([kind, id]) => `${kind}/${id}`)).size).toBe(RUNS);
    expect(table.every(([, , rows]) => rows.length === ROWS && rows[0] === '0:done')).toBe(true);
    for (const kind of ['campaigns', 'batches'])
      expect(files(dir, kind).every((f) => f.endsWith('.imported'))).toBe(true);
  }, 120_000);
});
