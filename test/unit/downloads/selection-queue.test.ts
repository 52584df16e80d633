import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openRecordsDatabase } from '../../../electron/services/records/database';
import { JOBS_A_STEP, queueSelection } from '../../../electron/services/downloads/selection-queue';
import { WINDOW } from '../../../electron/services/downloads/queue-window';
import { newEntry } from '../../../electron/services/downloads/queue-names';
import { SqliteDownloadBacklog } from '../../../electron/services/records/download-backlog';
import type { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { runImportChild } from '../records/kill-half-way';
import { pagesOf, selectionService } from './selection-fixture';

const MANY = 50_000;

/** Queues `count` jobs as a selection; answers the first page's answer and the end of the walk. */
async function queueMany(service: DownloadsService, folder: string, count = MANY) {
  let ended!: (value: { queued: number; stopped: boolean }) => void;
  const end = new Promise<{ queued: number; stopped: boolean }>((resolve) => (ended = resolve));
  const first = await queueSelection(
    service,
    pagesOf(count),
    { folder, template: '{id}', origin: 'library' },
    (queued, _s, stopped) => ended({ queued, stopped }),
  );
  return { first, end };
}

/** Every row of the folder's queue, read beside the owner: how many, how many jobs, by state column. */
function rowsOf(dataDir: string) {
  const database = openRecordsDatabase({ dataDir, readOnly: true });
  if (!database) throw new Error('no database');
  try {
    const [rows, jobs] = database.db.prepare('SELECT count(*), count(DISTINCT job_id) FROM downloads').raw().get() as [
      number,
      number,
    ];
    const states = Object.fromEntries(
      database.db.prepare(`SELECT json_extract(entry, '$.state'), count(*) FROM downloads GROUP BY 1`).raw().all() as [
        string,
        number,
      ][],
    );
    return { rows, jobs, states };
  } finally {
    database.close();
  }
}

describe('a download of a selection of any size', () => {
  it('flushes the page the call answers with, and leaves the later pages to the next flushed commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'selection-flush-'));
    const service = selectionService(dir);
    const asked = vi.spyOn(service.manager, 'enqueueBacklog');
    const { end } = await queueMany(service, join(dir, 'out'), JOBS_A_STEP * 3);
    await end;
    expect(asked.mock.calls.map(([, options]) => options?.flushed)).toEqual([true, false, false]);
    await service.dispose();

    // The backlog's commit waits for the disk (synchronous FULL, 2) only when asked to (NORMAL, 1).
    const database = openRecordsDatabase({ dataDir: dir });
    const backlog = new SqliteDownloadBacklog(database, () => []);
    const level = () => database.db.prepare('PRAGMA synchronous').raw().get() as [number];
    const entry = (n: number) => ({
      ...newEntry(
        { jobId: `late-${n}`, url: `https://x.test/${n}`, folder: dir, relativeName: `${n}`, origin: 'library' },
        dir,
        `${n}`,
        1,
      ),
      unnamed: true as const,
    });
    backlog.add([entry(1)], { flushed: false });
    expect(level()).toEqual([1]);
    backlog.add([entry(2)]);
    expect(level()).toEqual([2]);
    database.close();
  });

  it('queues every job once, a page at a time, and holds no more than its window in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'selection-'));
    const service = selectionService(dir);
    const { first, end } = await queueMany(service, join(dir, 'out'));
    // The answer is the first page; the rest goes on in the host.
    expect(first.more).toBe(true);
    expect(first.queued).toHaveLength(JOBS_A_STEP);
    expect((await end).queued).toBe(MANY);
    await service.manager.window.refilled();
    expect(rowsOf(dir)).toMatchObject({ rows: MANY, jobs: MANY });
    // What the manager holds: the window taken in, those transferring, nothing of the rest.
    expect(service.manager.window.holding).toBeLessThanOrEqual(WINDOW);
    expect(service.manager.list().length).toBeLessThanOrEqual(WINDOW + 3);
    expect(service.manager.window.queued).toBe(MANY - service.manager.list().length);
    // The totals count the backlog without reading it: every file is one to come.
    expect(service.manager.totals()).toMatchObject({ active: MANY, files: MANY, saved: 0 });
    // Asked again, the same selection queues nothing twice (held or waiting, each is found).
    const again = await queueMany(service, join(dir, 'out'));
    expect((await again.end).queued).toBe(MANY);
    expect(rowsOf(dir)).toMatchObject({ rows: MANY, jobs: MANY });
    await service.dispose();
  }, 120_000);

  it('names each file as it is taken in, so files asked under one name never share it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'selection-names-'));
    const service = selectionService(dir);
    await queueSelection(service, pagesOf(WINDOW * 2), {
      folder: join(dir, 'out'),
      template: 'clip',
      origin: 'library',
    });
    await service.manager.window.refilled();
    const held = service.manager.list();
    expect(held.every((d) => !d.unnamed)).toBe(true);
    expect(new Set(held.map((d) => d.relativeName)).size).toBe(held.length);
    expect(held.map((d) => d.relativeName)).toContain('clip (2).mp4');
    await service.dispose();
  });

  it('"Pause all" mid-queueing pauses what is queued and records the rest paused; resuming goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'selection-pause-'));
    const service = selectionService(dir);
    const { end } = await queueMany(service, join(dir, 'out'));
    await service.manager.pauseAll();
    expect((await end).stopped).toBe(false);
    await service.manager.whenIdle();
    expect(rowsOf(dir)).toMatchObject({ rows: MANY, jobs: MANY, states: { paused: MANY } });
    expect(service.manager.totals().active).toBe(0);
    await service.manager.resumeAll();
    expect(service.manager.window.paused).toBe(0);
    // The backlog goes on; those held were paused one by one, and the page resumes them one by one.
    const heldPaused = service.manager.list().filter((d) => d.state === 'paused').length;
    expect(heldPaused).toBeLessThanOrEqual(2 * WINDOW);
    expect(service.manager.totals().active).toBe(MANY - heldPaused);
    await service.dispose();
  }, 120_000);

  it('"Cancel all" mid-queueing stops the walk and forgets what waited; nothing is queued after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'selection-cancel-'));
    const service = selectionService(dir);
    const { end } = await queueMany(service, join(dir, 'out'));
    await service.manager.cancelAll();
    expect((await end).stopped).toBe(true);
    await service.manager.whenIdle();
    const after = rowsOf(dir);
    expect(after.rows).toBe(after.jobs);
    expect(after.rows).toBeLessThan(MANY);
    expect(after.states.queued ?? 0).toBe(0);
    expect(service.manager.totals().active).toBe(0);
    await service.dispose();
  }, 120_000);

  it('a start killed mid-queueing leaves each job queued at most once, and asking again completes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'selection-kill-'));
    await runImportChild('../downloads/selection-child.ts', dir, [String(MANY)], 'page 20', true);
    const after = rowsOf(dir);
    expect(after.rows).toBe(after.jobs);
    expect(after.rows).toBeGreaterThan(0);
    expect(after.rows).toBeLessThan(MANY);
    // The next start takes up what was committed (nothing held but the window) and a second ask adds the rest.
    const service = selectionService(dir);
    expect(service.manager.list().length).toBeLessThanOrEqual(WINDOW);
    const { end } = await queueMany(service, join(dir, 'out'));
    await end;
    expect(rowsOf(dir)).toMatchObject({ rows: MANY, jobs: MANY });
    await service.dispose();
  }, 120_000);
});
