// The archive leaves batch rows to their batch: its Save is their copy. Before, every row was copied
// into the archive's Speech folder as well, under a name built from its script. A row its batch left
// without a copy a day before its link ends is the archive's to protect (issue 50).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { defaultArchiveSettings } from '../../../electron/services/downloads/archive';
import { createArchive } from '../../../electron/services/downloads/downloads-domain';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { JobReactor } from '../../../electron/services/jobs/reactor';
import { patternBytes, startFileServer, type FileServer } from '../downloads/file-server';
import { recordsIn } from '../downloads/queue-record';

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(() => server.close());

const NOW = Date.now();
const HOUR = 3_600_000;

function speech(id: string, purpose: JobRecord['purpose'], expiresAt = NOW + 5 * HOUR): JobRecord {
  return {
    id,
    kind: 'tts',
    phase: 'completed',
    remoteId: `r-${id}`,
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    projectId: null,
    summary: `Speech ${id}`,
    requestHash: '',
    request: { input_text: `Line ${id}` },
    createdAt: NOW - HOUR,
    updatedAt: NOW,
    finishedAt: NOW - HOUR,
    // Within the day: the archive's expiry warning would name it if it were its to name.
    expiresAt,
    deadlineAt: NOW,
    remoteStatus: 3,
    resultUrl: server.url(`/${id}.mp3`),
    costEstimate: null,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 1,
    purpose,
    reactedAt: null,
  };
}

describe('the archive and batch rows', () => {
  it('archives a plain voiceover but not a batch row with days left, protects one about to expire unsaved, warns only about the plain one, and leaves batch rows to their batch\u2019s warning', async () => {
    const home = mkdtempSync(join(tmpdir(), 'batch-archive-'));
    const records = [
      speech('plain', { type: 'plain' }),
      speech('row', { type: 'batch-row', batchId: 'b1', row: 0 }, NOW + 30 * HOUR),
      speech('soon', { type: 'batch-row', batchId: 'b1', row: 1 }),
    ];
    for (const record of records)
      server.files.set(`/${record.id}.mp3`, { body: patternBytes(2000, 3), etag: `"${record.id}"` });
    const engine = {
      records: () => records,
      record: (id: string) => records.find((j) => j.id === id)!,
      subscribeRecords: () => () => undefined,
      markReacted: async (id: string) => void (records.find((j) => j.id === id)!.reactedAt = NOW),
    };
    const base = createMemoryHostBase({ dataDir: home });
    const downloads = new DownloadsService({
      dataDir: home,
      records: recordsIn(home),
      createStore: base.createStore,
      log: base.log,
      job: engine.record,
      projectName: async () => null,
    });
    const reactor = new JobReactor({ engine });
    let batchWarnings = 0;
    const runner = createArchive(base, downloads, {
      jobs: engine as never,
      reactor,
      batches: { warnExpiring: async () => ((batchWarnings += 1), []) },
    });
    runner.archive.settings.set({ ...defaultArchiveSettings(home), template: '{text|id}' });
    reactor.start();
    await reactor.idle();
    await runner.archive.sync();
    await downloads.manager.whenIdle();
    expect(readdirSync(join(home, 'Music', 'Avatar Studio')).sort()).toEqual(['Line plain.mp3', 'Line soon.mp3']);
    expect(downloads.manager.forJob('row')).toEqual([]);
    // All reacted to (the batch rows with nothing to do), so none is looked at again at the next start.
    expect(records.map((r) => r.reactedAt)).toEqual([NOW, NOW, NOW]);

    // Both copies gone: the plain one is named as expiring unsaved, the batch row is not the archive's to name.
    rmSync(join(home, 'Music'), { recursive: true });
    expect(await runner.archive.warnExpiring()).toEqual(['plain']);
    runner.start();
    runner.stop();
    expect(batchWarnings).toBe(1);
    reactor.stop();
    await downloads.dispose();
    rmSync(home, { recursive: true, force: true });
  });
});
