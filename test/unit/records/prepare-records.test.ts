// The first start's import of the old records other than the job journal (storage links, saved copies,
// campaigns and batches) reports how far it is: a stage at a time to the desktop app's and web host's
// startup screen, and a terminal line in every host, the command line too.
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordsStage } from '../../../electron/common/bridge/system';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { composeHost } from '../../../electron/services/host/compose';
import { stageLines } from '../../../electron/services/records/import-progress';
import { prepareRecords } from '../../../electron/services/records/prepare-records';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { removeTempDirs, tempDir } from './ledger-fixtures';
import { COPIES, LINKS, RUNS, recordsIn, writeOldFolder } from './old-folder';

afterEach(removeTempDirs);

const RUN_ROWS = RUNS.reduce((sum, run) => sum + run.rows, 0);

function oldFolder(): string {
  const dir = tempDir('prepare-records-');
  writeOldFolder(dir);
  return dir;
}

describe('prepareRecords on a folder with every kind of old record', () => {
  // Fails when the other old records go in at once again (mutation: runToEnd them in prepareRecords): the
  // screen would show the indexes while a few hundred thousand copies went in.
  it('reports the links, then the copies, then the runs, each rising to all of it, a large run on the way', async () => {
    const dir = oldFolder();
    const stages: RecordsStage[] = [];
    await prepareRecords(dir, { onStage: (stage) => stages.push(stage) });
    const of = <S extends RecordsStage['stage']>(name: S) =>
      stages.filter((stage): stage is RecordsStage & { stage: S } => stage.stage === name);
    const order = stages.map((stage) => stage.stage).filter((stage, i, all) => stage !== all[i - 1]);
    expect(order.slice(-3)).toEqual(['links', 'copies', 'runs']);
    expect(of('links')).toEqual([
      { stage: 'links', done: 0, total: 0 },
      { stage: 'links', done: LINKS, total: LINKS },
    ]);
    // Read first (both 0), then a transaction of 5,000 at a time.
    expect(of('copies').map((stage) => [stage.done, stage.total])).toEqual([
      [0, 0],
      [5_000, COPIES + 1],
      [10_000, COPIES + 1],
      [COPIES + 1, COPIES + 1],
    ]);
    const runs = of('runs');
    expect(runs[0]).toEqual({ stage: 'runs', rows: 0, fraction: 0 });
    expect(runs.at(-1)).toEqual({ stage: 'runs', rows: RUN_ROWS, fraction: 1 });
    // Each thousand rows, inside the first campaign's one transaction too.
    expect(runs.filter((stage) => stage.rows > 0 && stage.rows < RUNS[0].rows).map((stage) => stage.rows)).toEqual([
      1_000, 2_000, 3_000, 4_000, 5_000,
    ]);
    for (const [i, stage] of runs.entries())
      if (i > 0) expect(stage.fraction).toBeGreaterThanOrEqual(runs[i - 1].fraction);
  });

  // Fails when a stop inside a run's transaction is not rolled back (mutation: no ROLLBACK in the
  // import's finally): the connection closes on an open transaction, or half the run is in.
  it("stopped inside a run's transaction, leaves none of that run, and the next start puts it in whole", async () => {
    const dir = oldFolder();
    const stop = new AbortController();
    const stopped = prepareRecords(dir, {
      signal: stop.signal,
      onStage: (stage) => stage.stage === 'runs' && stage.rows > RUNS[0].rows && stop.abort(),
    });
    await expect(stopped).rejects.toThrow(/closed while it prepared its records/);
    expect(recordsIn(dir).runs).toEqual(['campaigns/c-1']);
    await prepareRecords(dir, { onStage: () => undefined });
    expect(recordsIn(dir).rows).toEqual(RUNS.map((run) => `${run.kind}/${run.id}:${run.rows}`).sort());
  });
});

describe('the terminal lines of the other old records', () => {
  it('say when each import starts, each tenth of the way, and what went in', () => {
    const lines: string[] = [];
    const print = stageLines((line) => lines.push(line));
    print({ stage: 'copies', done: 0, total: 0 });
    for (let done = 5_000; done < 333_000; done += 5_000) print({ stage: 'copies', done, total: 333_000 });
    print({ stage: 'copies', done: 333_000, total: 333_000 });
    print({ stage: 'runs', rows: 0, fraction: 0 });
    print({ stage: 'runs', rows: 40_000, fraction: 0.4 });
    print({ stage: 'runs', rows: 41_000, fraction: 0.41 });
    print({ stage: 'runs', rows: 100_000, fraction: 1 });
    print({ stage: 'runs', rows: 100_000, fraction: 1 });
    expect(lines[0]).toBe('Taking the old download queue into the database…');
    expect(lines[1]).toBe('Taking the old download queue into the database: 10% (35,000 of 333,000 copies)…');
    expect(lines.filter((line) => line.includes('download queue'))).toHaveLength(10);
    expect(lines.slice(10)).toEqual([
      'Saved copies taken into the database: 333,000 copies.',
      'Taking the old campaigns and batches into the database…',
      'Taking the old campaigns and batches into the database: 40% (40,000 rows)…',
      'Campaigns and batches taken into the database: 100,000 rows.',
    ]);
  });

  // Fails when a host's stage callback is not passed down to its records (mutation: drop onStage in
  // createDomains): the command line's first start would say nothing while it took them in.
  it("are printed by the command line's start, which opens the records at once", async () => {
    const dir = oldFolder();
    const lines: string[] = [];
    const host = composeHost({
      host: 'cli',
      appVersion: 'test',
      dataDir: dir,
      createVault: () => new EnvVault({}),
      platform: {},
      createStoreFactory: createConfStoreFactory,
      startSandbox: () => Promise.reject(new Error('no sandbox in this test')),
      onStage: stageLines((line) => lines.push(line)),
    });
    try {
      expect(lines.filter((line) => !line.endsWith('…'))).toEqual([
        `Storage links taken into the database: ${LINKS} links.`,
        `Saved copies taken into the database: ${(COPIES + 1).toLocaleString('en-US')} copies.`,
        `Campaigns and batches taken into the database: ${RUN_ROWS.toLocaleString('en-US')} rows.`,
      ]);
      expect(lines[0]).toBe('Taking the old record of uploads into the database…');
    } finally {
      await host.dispose();
    }
  });
});
