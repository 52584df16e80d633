// Issue 67, item 5: a worker forgets what it has handed over. Once a row's report is delivered, its
// one-row run and its ended jobs leave the worker's memory (its ledger on disk keeps the jobs, and the
// report carries them to the studio); a paused row's stay, as its jobs still end into it. What the
// spending gate reads of the jobs let go of (today's total, the guide for unpublished prices) is kept.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '@common/bridge/jobs';
import { recentCost } from '@common/jobs/cost-model';
import { campaignRowMaker } from '../../../electron/services/campaign/campaign-worker';
import { ForgottenJobs } from '../../../electron/services/jobs/forgotten-jobs';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { chargeHistory, spentToday } from '../../../electron/services/jobs/paid-gate';
import { createCampaign, prospects } from '../campaign/campaign-harness';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-worker-forgets-', { jobSeconds: 0.1 });

const ofCampaign = (id: string) => (job: JobRecord) =>
  job.purpose.type === 'campaign-row' && job.purpose.campaignId.startsWith(`${id}-`);

describe('a worker once a row’s report is delivered', () => {
  it('holds no record of the row nor of its jobs in memory; its ledger on disk and the report keep the jobs', async () => {
    const em = sandbox();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    const workerDir = mkdtempSync(join(dir, 'worker-'));
    const worker = accountHost(em, workerDir);
    await createCampaign(
      { catalogue: studio.catalogue, runner: studio.campaigns } as never,
      prospects(em, 3),
      join(dir, 'out'),
      {
        id: 'q',
      },
    );
    const { rows, ...queued } = (await studio.campaigns.get('q'))!;
    // Its copies' downloads are not the row's to let go: the manager lets each go once recorded (issue 68).
    const maker = campaignRowMaker(worker.campaigns, join(dir, 'made'), (match, scope) =>
      worker.engine.list(match, scope),
    );

    const reported: string[] = [];
    for (const row of rows) {
      const report = await maker.make(queued, row, { running: async () => true, progress: () => undefined });
      expect(report.outcome).toBe('ended');
      // Before the report is delivered, the row's jobs are still the worker's to report.
      expect(worker.engine.held(ofCampaign('q')).length).toBe(report.jobs?.length);
      reported.push(...(report.jobs ?? []).map((job) => job.id));
      await maker.delivered?.(queued, row, report);
      expect(worker.engine.held(ofCampaign('q'))).toEqual([]);
    }
    // Two voiceovers and a video a row, every one in a report.
    expect(reported.length).toBe(9);
    expect(await worker.campaigns.list()).toEqual([]);
    await worker.engine.flush();
    const onDisk = openLedger(workerDir, { readOnly: true }).loadAll().filter(ofCampaign('q'));
    expect(onDisk.map((job) => job.id).sort()).toEqual([...reported].sort());
    await worker.stop();
    await studio.stop();
  }, 120_000);
});

describe('the jobs a job engine lets go of', () => {
  const job = (id: string, at: number, fields: Partial<JobRecord>) =>
    ({
      id,
      connectionId: 'c',
      kind: 'tts',
      createdAt: at,
      phase: 'completed',
      remoteId: `r-${id}`,
      chargedCredits: 2,
      chargeSource: 'service',
      costEstimate: null,
      ...fields,
    }) as JobRecord;

  it('keep counting in the day’s total and the price guide; a job still active or followed stays in memory', () => {
    const now = Date.now();
    const jobs = new Map<string, JobRecord>();
    for (let i = 0; i < 40; i++) jobs.set(`j${i}`, job(`j${i}`, now - i * 1000, { chargedCredits: 1 + (i % 3) }));
    // Yesterday's, refused (no charge counted), an estimate, one still processing, one followed.
    jobs.set('old', job('old', now - 2 * 86_400_000, { chargedCredits: 50 }));
    jobs.set('refused', job('refused', now, { phase: 'failed', remoteId: null, chargedCredits: null }));
    jobs.set('guess', job('guess', now, { chargedCredits: 3, chargeSource: 'estimate' }));
    jobs.set('busy', job('busy', now, { phase: 'processing', chargedCredits: null }));
    jobs.set('followed', job('followed', now, {}));
    const before = {
      spent: spentToday(jobs.values(), 'c', now),
      guide: recentCost('tts', chargeHistory(jobs.values(), 'c')),
    };
    const forgotten = new ForgottenJobs(jobs, (id) => id === 'followed');

    expect(forgotten.forgetWhere(() => true)).toBe(43);
    expect([...jobs.keys()].sort()).toEqual(['busy', 'followed']);
    const read = () => [...forgotten.beside(jobs.values())];
    expect(spentToday(read(), 'c', now)).toBe(before.spent);
    expect(recentCost('tts', chargeHistory(read(), 'c'))).toEqual(before.guide);
    // What stands for them is a few charges and a total a day, not one each.
    expect(read().length).toBeLessThanOrEqual(2 + 5 + 2);
  });

  it('keep the price guide when the latest jobs failed: a refunded failure is no guide, and takes no place of one', () => {
    const now = Date.now();
    const jobs = new Map<string, JobRecord>();
    for (let i = 0; i < 10; i++) jobs.set(`j${i}`, job(`j${i}`, now - 100_000 - i * 1000, { chargedCredits: 1 }));
    for (let i = 0; i < 5; i++)
      jobs.set(`f${i}`, job(`f${i}`, now - i * 1000, { phase: 'failed', chargedCredits: 0, chargeSource: 'service' }));
    const guide = recentCost('tts', chargeHistory(jobs.values(), 'c'));
    expect(guide).toMatchObject({ count: 5, credits: 1 });
    const forgotten = new ForgottenJobs(jobs, () => false);
    expect(forgotten.forgetWhere(() => true)).toBe(15);
    expect(recentCost('tts', chargeHistory([...forgotten.beside(jobs.values())], 'c'))).toEqual(guide);
  });
});
