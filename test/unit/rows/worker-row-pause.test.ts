// A queued campaign paused in the studio that started it: the worker making one of its rows sends no
// paid request after it sees the pause (it asks the run's state before each), reports the row as paused
// with the jobs it already made, and a later take of the row on resume pays for none of them again.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JobSubmission } from '@common/bridge/jobs';
import type { CampaignRowRecord } from '@common/campaign/record';
import { campaignRowMaker } from '../../../electron/services/campaign/campaign-worker';
import { createCampaign, prospects } from '../campaign/campaign-harness';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-worker-pause-', { jobSeconds: 0.1 });

describe("a worker's row of a queued campaign that is paused", () => {
  it('sends nothing after the pause, reports the row paused with its jobs, and pays for none again on resume', async () => {
    const em = sandbox();
    // The studio that queued the campaign (its record) and the worker (its own folder and ledger).
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    const worker = accountHost(em, mkdtempSync(join(dir, 'worker-')));
    await createCampaign(
      { catalogue: studio.catalogue, runner: studio.campaigns } as never,
      prospects(em, 1),
      join(dir, 'out'),
      {
        id: 'q',
      },
    );
    const { rows, ...queued } = (await studio.campaigns.get('q'))!;
    const maker = campaignRowMaker(worker.campaigns, join(dir, 'made'), (match) => worker.engine.list(match));

    // The run is paused in the studio as soon as the worker has sent the row's first voiceover.
    let running = true;
    const afterPause: JobSubmission[] = [];
    const submit = worker.engine.submit.bind(worker.engine);
    vi.spyOn(worker.engine, 'submit').mockImplementation((submission, signal) => {
      if (!running) afterPause.push(submission);
      const going = submit(submission, signal);
      running = false;
      return going;
    });
    const paused = await maker.make(queued, rows[0], { running: async () => running, progress: () => undefined });
    expect(paused.outcome).toBe('paused');
    expect(afterPause).toEqual([]);
    expect((paused.record as CampaignRowRecord).state).not.toBe('failed');
    // The one voiceover it made goes back with the report, for the studio's ledger.
    expect(paused.jobs?.map((j) => j.kind)).toEqual(['tts']);

    // Resumed: the row is taken again and made to its end, its voiceover not paid for twice.
    running = true;
    vi.mocked(worker.engine.submit).mockImplementation(submit);
    const ended = await maker.make(queued, rows[0], { running: async () => true, progress: () => undefined });
    expect(ended.outcome).toBe('ended');
    expect((ended.record as CampaignRowRecord).state).toBe('done');
    expect([...worker.created().values()]).toEqual([1, 1, 1]);
    await worker.stop();
    await studio.stop();
  }, 120_000);
});
