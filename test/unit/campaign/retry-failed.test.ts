// "Retry all failed": every failed row of a campaign made again at once, on one answer to one price
// question (refused without it), each row its next take, and every row then done.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { createCampaignsDomain } from '../../../electron/services/campaign/campaigns-domain';
import { campaignHost, createdPerStep, prospects, smallTemplate } from './campaign-harness';
import { sandboxPerFile } from '../emulator/harness';

const { dir, sandbox } = sandboxPerFile('studio-retry-failed-', { jobSeconds: 0.1 });
let em: RunningEmulator;
beforeAll(() => {
  em = sandbox();
});

describe('retrying every failed row of a campaign', () => {
  it('asks one price for all of them, refuses without an answer, and makes each again as its next take', async () => {
    const dataDir = mkdtempSync(join(dir, 'studio-'));
    const host = campaignHost(em, dataDir);
    const sheet = join(dataDir, 'prospects.csv');
    writeFileSync(
      sheet,
      prospects(em, 3)
        .map((line) => line.join(','))
        .join('\n'),
    );
    const h = createCampaignsDomain(
      { jobs: host.engine, catalogue: host.catalogue, queries: host.queries },
      {
        runner: host.runner,
        openProject: async () => smallTemplate().project,
        pathOf: (ref) => (ref === 'file:///granted/prospects.csv' ? sheet : null),
        checkLinks: async (urls) =>
          urls.map((url) => ({
            url,
            ok: true,
            kind: 'image' as const,
            format: 'png' as const,
            durationMs: null,
            sizeBytes: 1,
            checkedAt: 0,
          })),
        stills: {} as never,
      },
    ).handlers;
    const input = {
      projectId: 'p1',
      key: 'retry-all',
      file: 'file:///granted/prospects.csv',
      label: 'prospects.csv',
      fileName: '{{row}} - {{First name}}',
      outDir: join(dataDir, 'out'),
      concurrency: 4,
    };
    // Every job the sandbox makes fails: each row fails at its first voiceover.
    em.setFaults({ failRate: 1 });
    await h['campaigns.create'](input, { by: 'script' });
    const failed = await host.runner.run('retry-all');
    expect(failed.rows.map((r) => r.state)).toEqual(['failed', 'failed', 'failed']);
    em.setFaults({ failRate: 0 });
    const before = createdPerStep(dataDir);

    // One question: every failed row's voiceovers and videos.
    const quote = await h['campaigns.quoteFailed']('retry-all');
    expect(quote.items.map((i) => [i.action, i.count])).toEqual([
      ['tts', 6],
      ['avatar-video', 3],
    ]);
    await expect(h['campaigns.retryFailed']('retry-all', undefined as never)).rejects.toMatchObject({
      code: 'confirmation-required',
    });
    expect(createdPerStep(dataDir)).toEqual(before);

    await h['campaigns.retryFailed']('retry-all', { by: 'user', credits: null });
    const done = await host.runner.run('retry-all');
    expect(done.rows.map((r) => [r.state, r.take])).toEqual([
      ['done', 1],
      ['done', 1],
      ['done', 1],
    ]);
    // The failed takes' jobs stay as they were; each row's new take made each of its steps once.
    const after = createdPerStep(dataDir);
    for (const [step, n] of before) expect(after.get(step)).toBe(n);
    expect([...after].filter(([step]) => step.endsWith(':1')).map(([, n]) => n)).toEqual(Array(9).fill(1));
    await host.stop();
  }, 120_000);
});
