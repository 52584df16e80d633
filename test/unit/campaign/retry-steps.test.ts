import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge/jobs';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { CampaignRows } from '../../../electron/services/campaign/campaign-rows';
import { rowCosts } from '../../../electron/services/campaign/campaign-manifest';
import { retriedRow } from '../../../electron/services/campaign/campaign-reuse';
import { campaignQuote, newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import { HandService as Service } from './hand-service';
import { loadTemplate } from './template-fixture';
import { runsIn } from '../rows/folder-runs';

function oneRowCampaign(saveFails: () => boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-campaign-retry-'));
  const service = new Service();
  const saved: string[] = [];
  const runner = new CampaignRows({
    rows: new RowEngine({
      jobs: service,
    }),
    runs: runsIn(dataDir),
    prepare: async (body) => body,
    saveRow: async (_record, row) => {
      if (saveFails()) throw new Error('the disk is full');
      saved.push(row.resultUrl ?? '');
    },
  });
  service.onEnd = (job) => void runner.jobEnded(job);
  const template = loadTemplate();
  const lines = [
    ['First name', 'company', 'voice', 'avatar', 'logo'],
    ['Ana', 'Co', 'sandbox_ava', 'SandboxBen', 'https://cdn.example/logo.png'],
  ];
  const filled = fillRows(template, campaignTable(lines, columnVariables(template)).rows, {
    voice: null,
    avatar: null,
  });
  const record = newCampaignRecord({
    id: 'retry',
    label: 'retry.csv',
    template,
    check: { rows: checkRows(filled, new Map()), voiceIds: {} },
    sheetFolder: null,
    outDir: join(dataDir, 'out'),
    concurrency: 1,
  });
  /** Ends what waits at the service until the run has nothing more under way. */
  const settle = async (failing: readonly string[] = []) => {
    for (let i = 0; i < 6; i += 1) {
      await runner.idle();
      service.end(failing);
    }
    await runner.idle();
  };
  return { service, runner, record, saved, settle };
}

describe('a retried campaign row sends only the steps it lacks', () => {
  it('after its video failed: the voiceovers it made are kept, only the video is sent (and priced) again', async () => {
    const { service, runner, record, settle } = oneRowCampaign(() => false);
    await runner.create(record);
    void runner.run('retry');
    await settle(['avatar-video']);
    const failed = (await runner.get('retry'))?.rows[0];
    expect(failed?.state).toBe('failed');
    expect(service.sent()).toEqual(['tts#0', 'tts#0', 'avatar-video#0']);

    // The retry's price question prices what the retry sends: one video, no voiceover.
    const again = retriedRow(failed!, service.jobs, Date.now());
    expect(campaignQuote({ ...record, rows: [again] })).toEqual([{ action: 'avatar-video', count: 1 }]);

    await runner.retryRow('retry', 0);
    void runner.run('retry');
    await settle();
    expect((await runner.get('retry'))?.rows[0].state).toBe('done');
    expect(service.sent()).toEqual(['tts#0', 'tts#0', 'avatar-video#0', 'avatar-video#1']);
    // The row's cost is every charge it caused, the first take's voiceovers included: the rows add up
    // to what the campaign was charged.
    const charged = service.jobs.reduce((sum, j) => sum + (j.chargedCredits ?? 0), 0);
    expect(rowCosts((await runner.get('retry'))!, service.jobs).get(0)).toBe(charged);
  });

  it('whose voiceovers expired: they are made again with the video', () => {
    const { service, record } = oneRowCampaign(() => false);
    const row = { ...record.rows[0], state: 'failed' as const, voiceovers: { a: 'https://cdn.example/old' } };
    service.jobs = [{ resultUrl: 'https://cdn.example/old', expiresAt: Date.now() - 1 } as JobView];
    expect(retriedRow(row, service.jobs, Date.now()).voiceovers).toEqual({});
  });

  it('after its made video could not be saved: it is saved again, nothing is sent', async () => {
    let full = true;
    const { service, runner, record, saved, settle } = oneRowCampaign(() => full);
    await runner.create(record);
    void runner.run('retry');
    await settle();
    const failed = (await runner.get('retry'))?.rows[0];
    expect(failed?.problems[0]).toMatch(/made but could not be saved/);
    const sent = service.sent();
    expect(campaignQuote({ ...record, rows: [retriedRow(failed!, service.jobs, Date.now())] })).toEqual([]);

    full = false;
    await runner.retryRow('retry', 0);
    void runner.run('retry');
    await settle();
    expect((await runner.get('retry'))?.rows[0].state).toBe('done');
    expect(service.sent()).toEqual(sent);
    expect(saved).toEqual([failed?.resultUrl]);
  });
});
