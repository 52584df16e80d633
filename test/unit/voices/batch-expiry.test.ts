// A batch names its rows that expire within a day unsaved. "Saved" is the one record of copies checked
// against the disk, as the archive and the Library read it (issue 50): before, the batch asked only
// whether its Save's file still existed, so a rewritten file counted as saved and its row expired silently.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/services/client';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { PlainPolling } from '../../../electron/services/jobs/polling-strategy';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { exportBatch } from '../../../electron/services/voices/batch-export';
import { readBatch } from '../../../electron/services/voices/batch-input';
import { createBatchRows } from './batch-host';
import { silent } from '../downloads/job-fixture';
import { sandboxPerFile } from '../emulator/harness';
import { recordsIn } from '../downloads/queue-record';
import { runsIn } from '../rows/folder-runs';

const { dir, sandbox } = sandboxPerFile('studio-batch-expiry-');

describe("a batch's expiry warning", () => {
  it('names the rows with no copy on disk as saved: never saved, deleted, or rewritten since', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const notes: string[] = [];
    const client = new ServiceClient({
      baseUrl: sandbox().url,
      credentials: { kind: 'api-key', apiKey: sandbox().apiKey },
    });
    const engine = new JobEngine({
      storage: openLedger(dataDir),
      connections: {
        active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
        client: async () => client,
      },
      clock: { now: () => Date.now() },
      polling: new PlainPolling(),
      scheduler: {
        queued: { baseMs: 300, capMs: 1_000, factor: 1.5, jitter: 0.3 },
        processing: { baseMs: 300, capMs: 1_000, factor: 1.5, jitter: 0.3 },
      },
    });
    engine.start();
    const { batches, reactor } = createBatchRows({
      engine,
      runs: runsIn(dataDir),
      notify: (title, body) => notes.push(`${title}: ${body}`),
    });
    const downloads = new DownloadsService({
      dataDir,
      records: recordsIn(dataDir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      job: (id) => engine.record(id),
      jobs: () => engine.records(),
      projectName: async () => null,
    });
    try {
      const read = readBatch(
        'text,voice,name\nOne.,sandbox_ava,one\nTwo.,sandbox_ava,two\nThree.,sandbox_ava,three',
        {},
      );
      await batches.create({
        id: 'bx',
        label: 'spots.csv',
        rows: read.rows,
        invalid: [],
        concurrency: 3,
        template: '{name}',
      });
      const view = await batches.run('bx');
      expect(view.rows.map((r) => r.state)).toEqual(['completed', 'completed', 'completed']);

      // Rows 1 and 2 saved as the batches domain saves them: through the record of copies, then remembered.
      const folder = join(dataDir, 'Spots');
      const { files } = await exportBatch({ ...view, rows: view.rows.slice(0, 2) }, folder, {
        saveCopy: (row, target) =>
          downloads.copies.saveOrThrow({ jobId: row.jobId as string, path: target, savedBy: 'batch' }),
      });
      await batches.markSaved('bx', files);
      const soon = (view.rows[0].expiresAt as number) - 3_600_000;
      expect(await batches.warnExpiring(downloads.copies, soon)).toEqual(['bx']);
      expect(notes.at(-1)).toBe(
        'Batch "spots.csv": 1 row expires within 24 hours unsaved: Open the batch in Voices and choose Save files to keep it (sheet row 4).',
      );
      // Each row once per run.
      expect(await batches.warnExpiring(downloads.copies, soon)).toEqual([]);

      // Row 1's file deleted, row 2's rewritten (it still exists): neither is a copy of its result any more.
      rmSync(join(folder, 'one.mp3'));
      appendFileSync(join(folder, 'two.mp3'), 'edited');
      expect(await batches.warnExpiring(downloads.copies, soon)).toEqual(['bx']);
      expect(notes.at(-1)).toBe(
        'Batch "spots.csv": 2 rows expire within 24 hours unsaved: Open the batch in Voices and choose Save files to keep them (sheet row 2, sheet row 3).',
      );
      // The record says so too, as the Library and the batch's rows show it.
      const [one, two] = view.rows.map((r) => downloads.manager.forJob(r.jobId as string)[0]?.state);
      expect([one, two]).toEqual(['missing', 'changed']);
    } finally {
      reactor.stop();
      engine.stop();
      await downloads.dispose();
    }
  }, 120_000);
});
