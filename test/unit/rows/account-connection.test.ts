// The account's end stops every run on the connection, not only the one whose create was refused: a
// campaign refused for want of credits pauses a batch sending beside it on the same connection, whose
// own creates the service would still have taken, and that batch sends nothing more until resumed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord, JobSubmission, JobView, SubmitResult } from '@common/bridge/jobs';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { CampaignRows } from '../../../electron/services/campaign/campaign-rows';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import { BatchRows } from '../../../electron/services/voices/batch-rows';
import { loadTemplate } from '../campaign/template-fixture';
import { advanceUntil } from './windows';
import { runsIn } from './folder-runs';

/**
 * One connection whose account can no longer pay for a campaign's jobs: the service refuses each
 * campaign create with 1006 (making nothing) and takes every batch create, whose jobs end after a second.
 */
class OneConnection {
  readonly records: JobRecord[] = [];
  rows!: RowEngine;

  list(): JobView[] {
    return this.records as unknown as JobView[];
  }

  async submit(submission: JobSubmission): Promise<SubmitResult> {
    const refused = submission.purpose?.type === 'campaign-row';
    const record = {
      id: `job-${this.records.length + 1}`,
      kind: submission.kind,
      purpose: submission.purpose,
      connectionId: 'c1',
      createdAt: Date.now(),
      finishedAt: refused ? Date.now() : null,
      phase: refused ? 'failed' : 'queued',
      remoteId: refused ? null : `r${this.records.length + 1}`,
      resultUrl: null,
      costEstimate: null,
      chargedCredits: refused ? null : 1,
      error: refused
        ? { code: 1006, explanation: 'The account has run out of quota.', message: '', endpoint: null }
        : null,
      polls: 0,
    } as unknown as JobRecord;
    this.records.push(record);
    if (refused) void this.rows.jobEnded(record);
    else
      setTimeout(() => {
        Object.assign(record, { phase: 'completed', polls: 1, finishedAt: Date.now(), resultUrl: 'https://cdn/x' });
        void this.rows.jobEnded(record);
      }, 1_000);
    return { status: 'submitted', job: record as unknown as JobView };
  }

  made(type: 'batch-row' | 'campaign-row'): number {
    return this.records.filter((r) => r.purpose?.type === type && r.remoteId !== null).length;
  }
}

/** Far more batch rows than it can send in the time the campaign takes to start. */
const ROWS = 600;

beforeEach(() => {
  vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
afterEach(() => {
  vi.useRealTimers();
});

describe("the account's end on a connection", () => {
  it('pauses every run sending on it, and the others send nothing more until resumed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-account-connection-'));
    const service = new OneConnection();
    const rows = new RowEngine({
      jobs: service,
      connection: async () => 'c1',
    });
    service.rows = rows;
    const campaigns = new CampaignRows({
      rows,
      runs: runsIn(dataDir),
      prepare: async (body) => body,
      saveRow: async () => undefined,
    });
    const batches = new BatchRows({ rows, runs: runsIn(dataDir), subscribe: () => () => undefined });
    const template = loadTemplate();
    const sheet = [
      ['First name', 'company', 'voice', 'avatar', 'logo'],
      ['Ana', 'Co', 'sandbox_ava', 'SandboxBen', 'https://cdn/logo.png'],
    ];
    const filled = fillRows(template, campaignTable(sheet, columnVariables(template)).rows, {
      voice: null,
      avatar: null,
    });
    await batches.create({
      id: 'b',
      label: 'b.csv',
      rows: Array.from({ length: ROWS }, (_, row) => ({
        row,
        text: `Line ${row + 1}.`,
        voiceId: 'sandbox_ava',
        rate: '50%',
        name: null,
      })),
      invalid: [],
      concurrency: 2,
      template: '{row}',
    });
    await campaigns.create(
      newCampaignRecord({
        id: 'c',
        label: 'c.csv',
        template,
        check: { rows: checkRows(filled, new Map()), voiceIds: {} },
        sheetFolder: null,
        outDir: join(dataDir, 'out'),
        concurrency: 2,
      }),
    );
    // Both start at once on the one connection; the campaign's first create is refused.
    void batches.run('b');
    void campaigns.run('c');
    await advanceUntil(
      () => advance(1),
      async () => (await rows.get('campaign', 'c'))?.state === 'paused',
    );

    const batch = await rows.get('batch', 'b');
    expect(batch?.state).toBe('paused');
    expect(batch?.pause?.reason).toBe('balance');
    // The batch's creates on their way when it paused are answered; after that nothing more leaves.
    await advance(5_000);
    const sent = service.made('batch-row');
    expect(sent).toBeLessThan(ROWS);
    await advance(60_000);
    expect(service.made('batch-row')).toBe(sent);
    expect(batches.view((await batches.get('b'))!).counts.failed ?? 0).toBe(0);
    rows.stop();
  });
});
