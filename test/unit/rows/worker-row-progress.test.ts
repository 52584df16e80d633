// Issue 67: a worker's campaign row tells its progress as it goes (kept in its take's BullMQ job, see
// take-progress.test.ts), and another worker given the row as it stood (its voiceovers made, its video
// next) goes on from there: it pays for no voiceover again, even with no ledger or intent of the first
// worker's to find them by. Against the sandbox, each worker with a folder and ledger of its own.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge/jobs';
import type { CampaignRowRecord } from '@common/campaign/record';
import type { RowBase } from '../../../electron/services/rows/engine/row-kind';
import { campaignRowMaker } from '../../../electron/services/campaign/campaign-worker';
import { createCampaign, prospects } from '../campaign/campaign-harness';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-worker-progress-', { jobSeconds: 0.1 });

const paidBy = (host: ReturnType<typeof accountHost>, step: string): number =>
  [...host.created()].filter(([key]) => key.split(':')[3] === step).reduce((sum, [, n]) => sum + n, 0);

describe("a worker's campaign row", () => {
  it('tells each step it reaches, and a worker given the row at its video pays for no voiceover again', async () => {
    const em = sandbox();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    const first = accountHost(em, mkdtempSync(join(dir, 'worker-1-')));
    const second = accountHost(em, mkdtempSync(join(dir, 'worker-2-')));
    await createCampaign(
      { catalogue: studio.catalogue, runner: studio.campaigns } as never,
      prospects(em, 1),
      join(dir, 'out'),
      { id: 'q' },
    );
    const { rows, ...queued } = (await studio.campaigns.get('q'))!;
    const told: { row: RowBase; jobs: JobView[] }[] = [];
    const made = await campaignRowMaker(first.campaigns, join(dir, 'made-1'), (match) => first.engine.list(match)).make(
      queued,
      rows[0],
      {
        running: async () => true,
        progress: (row, jobs = []) => void told.push({ row, jobs: typeof jobs === 'function' ? jobs() : jobs }),
      },
    );
    expect(made.record.state).toBe('done');
    const told1 = told.find(({ row }) => row.state === 'video');
    const atVideo = told1?.row as CampaignRowRecord | undefined;
    expect(Object.keys(atVideo?.voiceovers ?? {})).toHaveLength(2);
    // Told with the jobs made so far, named as the queued campaign's, for the report of whoever ends the row.
    expect(told1?.jobs.map((job) => [job.kind, job.purpose.type === 'campaign-row' && job.purpose.campaignId])).toEqual(
      [
        ['tts', 'q'],
        ['tts', 'q'],
      ],
    );
    expect(paidBy(first, 'voiceover')).toBe(2);

    // The row as the queue kept it at its video, made by a worker that knows nothing of the first.
    const again = await campaignRowMaker(second.campaigns, join(dir, 'made-2'), (match) =>
      second.engine.list(match),
    ).make(queued, atVideo!, { running: async () => true, progress: () => undefined });
    expect(again.record.state).toBe('done');
    expect(paidBy(second, 'voiceover')).toBe(0);
    expect(paidBy(second, 'video')).toBe(1);
    await Promise.all([first.stop(), second.stop(), studio.stop()]);
  }, 120_000);
});
