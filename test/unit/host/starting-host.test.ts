import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { describe, expect, it, vi } from 'vitest';
import type { RecordsStage } from '../../../electron/common/bridge/system';
import { startHost } from '../../../electron/services/host/starting-host';
import { StartupProgress } from '../../../electron/services/host/startup-progress';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { prepareRecords } from '../../../electron/services/records/prepare-records';
import { stageLines } from '../../../electron/services/records/import-progress';
import { JOB_INDEXES, MIGRATIONS, SCHEMA_VERSION } from '../../../electron/services/records/schema';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { putLine, record } from '../records/ledger-fixtures';

function folderWithJournal(jobs: number): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-starting-'));
  mkdirSync(join(dataDir, 'jobs'));
  const lines = Array.from({ length: jobs }, (_, i) => putLine(record(`job-${i}`, 'completed', i + 1)));
  writeFileSync(join(dataDir, 'jobs', 'ledger.jsonl'), `${lines.join('\n')}\n`);
  return dataDir;
}

const journalLeft = (dataDir: string) => existsSync(join(dataDir, 'jobs', 'ledger.jsonl'));

describe('StartupProgress', () => {
  it('says what is under way and for how long, then that the studio is ready, its clock stopped', () => {
    let now = 1_000;
    const progress = new StartupProgress(() => now);
    expect(progress.state()).toEqual({ ready: false, records: null, elapsedMs: 0, failure: null });
    progress.report({ stage: 'journal', rows: 5_000, fraction: 0.25 });
    now = 4_500;
    expect(progress.state()).toEqual({
      ready: false,
      records: { stage: 'journal', rows: 5_000, fraction: 0.25 },
      elapsedMs: 3_500,
      failure: null,
    });
    progress.finish();
    now = 9_000;
    // A late report of a step (there is none once ended) cannot bring the screen back.
    progress.report({ stage: 'indexes', step: 1, steps: 2 });
    expect(progress.state()).toEqual({ ready: true, records: null, elapsedMs: 3_500, failure: null });
  });

  it('says why a start failed, and is then not ready', () => {
    const progress = new StartupProgress(() => 0);
    progress.fail('the disk is full');
    progress.finish();
    expect(progress.state()).toMatchObject({ ready: false, failure: 'the disk is full' });
  });
});

describe('stageLines', () => {
  it("prints an existing database's schema steps and the indexes' build once, and nothing for a new database", () => {
    const lines: string[] = [];
    const print = stageLines((line) => lines.push(line));
    for (let step = 1; step <= SCHEMA_VERSION; step += 1) print({ stage: 'upgrading', step, steps: SCHEMA_VERSION });
    expect(lines).toEqual([]);
    print({ stage: 'upgrading', step: 1, steps: 3 });
    for (let step = 1; step <= 3; step += 1) print({ stage: 'indexes', step, steps: 3 });
    expect(lines).toEqual(['Upgrading the records (step 1 of 3)…', 'Indexing the jobs (3 indexes)…']);
  });
});

describe('prepareRecords', () => {
  it('reports the journal read a transaction at a time, then each index, and leaves openRecords nothing to do', async () => {
    const dataDir = folderWithJournal(40);
    const stages: RecordsStage[] = [];
    await prepareRecords(dataDir, { rowsPerTransaction: 10, onStage: (stage) => stages.push(stage) });
    const indexes = Object.keys(JOB_INDEXES).length;
    expect(stages.filter((s) => s.stage === 'upgrading').map((s) => s.stage === 'upgrading' && s.step)).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    );
    const journal = stages.filter((s) => s.stage === 'journal');
    expect(journal.map((s) => s.rows)).toEqual([10, 20, 30, 40]);
    const fractions = journal.map((s) => s.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBe(1);
    expect(stages.filter((s) => s.stage === 'indexes')).toEqual(
      Array.from({ length: indexes }, (_, i) => ({ stage: 'indexes', step: i + 1, steps: indexes })),
    );
    expect(journalLeft(dataDir)).toBe(false);
    const records = openRecords(dataDir);
    expect(records.ledger.loadAll().length).toBe(40);
    records.ledger.close();
  });

  it("reports the schema steps an older folder's database has not had, as step N of M", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-starting-'));
    const old = new Database(join(dataDir, 'records.db'));
    for (const step of MIGRATIONS.slice(0, 5)) old.exec(step);
    old.exec('PRAGMA user_version = 5');
    old.close();
    const stages: RecordsStage[] = [];
    await prepareRecords(dataDir, { onStage: (stage) => stages.push(stage) });
    const steps = SCHEMA_VERSION - 5;
    expect(stages).toEqual(Array.from({ length: steps }, (_, i) => ({ stage: 'upgrading', step: i + 1, steps })));
  });

  // Fails when a stop is not heard (mutation: always steps.next() in driveSteps): the import then ends.
  it('stops at its next pause when the host quits, leaving the journal for the next start to take in', async () => {
    const dataDir = folderWithJournal(40);
    const stop = new AbortController();
    const seen = prepareRecords(dataDir, {
      rowsPerTransaction: 10,
      signal: stop.signal,
      onStage: (stage) => stage.stage === 'journal' && stop.abort(),
    });
    await expect(seen).rejects.toThrow(/closed while it prepared its records/);
    expect(journalLeft(dataDir)).toBe(true);
    await prepareRecords(dataDir, { onStage: () => undefined });
    expect(journalLeft(dataDir)).toBe(false);
    const records = openRecords(dataDir);
    expect(records.ledger.loadAll().length).toBe(40);
    records.ledger.close();
  });
});

function start(dataDir: string, waitForPageMs?: number) {
  return startHost({
    waitForPageMs,
    host: 'web',
    appVersion: '9.9.9',
    dataDir,
    createVault: () => new MemoryVault(),
    platform: {},
    createStoreFactory: createConfStoreFactory,
    startSandbox: vi.fn(async () => ({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', close: async () => undefined })),
  });
}

describe('startHost', () => {
  // Fails when other calls are not held back (mutation: dispatch straight to a host built at once, or
  // answer them before ready): a page would list a Library whose jobs are still being taken in.
  it('answers how far the start is at once, and every other call only once the records are open', async () => {
    const dataDir = folderWithJournal(300);
    const host = start(dataDir);
    const order: string[] = [];
    const listed = host.dispatch('jobs.list', []).then((outcome) => {
      order.push('jobs.list');
      return outcome;
    });
    const early = await host.dispatch('system.startup', []);
    order.push('system.startup');
    expect(early).toMatchObject({ ok: true, value: { ready: false, failure: null } });
    await host.ready;
    expect(await listed).toMatchObject({ ok: true, value: expect.any(Array) });
    expect(((await listed) as { value: unknown[] }).value).toHaveLength(300);
    expect(order).toEqual(['system.startup', 'jobs.list']);
    expect(await host.dispatch('system.startup', [])).toMatchObject({
      ok: true,
      value: { ready: true, records: null },
    });
    await host.dispose();
  });

  // Fails when the preparation does not wait for the page (mutation: resolve the page's promise at once):
  // the desktop window, served by the same loop, would stay blank through a long schema step.
  it("holds every step after the first until the desktop window's page has asked how the start goes", async () => {
    const dataDir = folderWithJournal(50);
    const host = start(dataDir, 60_000);
    expect(host.progress.state().records).toEqual({ stage: 'upgrading', step: 1, steps: SCHEMA_VERSION });
    let asked = false;
    const reportedBeforeAsked: RecordsStage[] = [];
    const report = host.progress.report.bind(host.progress);
    host.progress.report = (stage) => {
      if (!asked) reportedBeforeAsked.push(stage);
      report(stage);
    };
    // A page takes a while to load: the loop turns meanwhile, and nothing more of the start is done.
    await new Promise((resolve) => setTimeout(resolve, 100));
    asked = true;
    expect(await host.dispatch('system.startup', [])).toMatchObject({
      value: { records: { stage: 'upgrading', step: 1 } },
    });
    await host.ready;
    expect(reportedBeforeAsked).toEqual([]);
    expect(journalLeft(dataDir)).toBe(false);
    await host.dispose();
  });
});
