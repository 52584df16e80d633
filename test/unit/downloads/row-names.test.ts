import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import type { JobPurpose } from '../../../electron/common/jobs/purpose';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { recordsIn } from './queue-record';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const dir = mkdtempSync(join(tmpdir(), 'row-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function job(id: string, kind: JobRecord['kind'], purpose: JobPurpose): JobRecord {
  return {
    id,
    kind,
    phase: 'completed',
    remoteId: `r-${id}`,
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    projectId: null,
    summary: '',
    requestHash: '',
    request: kind === 'tts' ? { voice_id: 'sandbox_hugo', input_text: 'Line.' } : {},
    createdAt: NOW - 3600_000,
    updatedAt: NOW,
    finishedAt: NOW - 60_000,
    expiresAt: NOW + 86_400_000,
    deadlineAt: NOW,
    remoteStatus: 3,
    resultUrl: `https://results.example/${id}.${kind === 'tts' ? 'mp3' : 'mp4'}`,
    costEstimate: null,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 1,
    purpose,
    reactedAt: null,
  };
}

describe('{row} in download names', () => {
  it('is a batch or campaign row’s own number, and empty for any other job, so {row|id} names it by its id', async () => {
    // The Library's selection of an editor's backlog: batch rows and jobs that are no row, mixed.
    const jobs = [
      job('plain-speech', 'tts', { type: 'plain' }),
      job('row-five', 'tts', { type: 'batch-row', batchId: 'b1', row: 4 }),
      job('lip', 'lipsync', { type: 'plain' }),
      job('clip-two', 'avatar-video', { type: 'campaign-row', campaignId: 'c1', row: 1, step: 'video', take: 0 }),
      job('swap', 'character-swap', { type: 'plain' }),
    ];
    const byId = new Map(jobs.map((j) => [j.id, j]));
    const service = new DownloadsService({
      dataDir: dir,
      records: recordsIn(dir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      now: () => NOW,
      job: (id) => byId.get(id) as JobRecord,
      projectName: async () => null,
    });
    try {
      const names = await service.preview(
        jobs.map((j) => j.id),
        '{row|id} - {voice|id}',
      );
      // Before, each job took its place in the selection (1, 3, 5), numbers rows 2 and 5 of the batch
      // or campaign could carry too: one name, two recordings.
      expect(names.map((n) => n.name)).toEqual([
        'r-plain-speech - sandbox_hugo.mp3',
        '5 - sandbox_hugo.mp3',
        'r-lip - r-lip.mp4',
        '2 - r-clip-two.mp4',
        'r-swap - r-swap.mp4',
      ]);
    } finally {
      await service.dispose();
    }
  });
});
