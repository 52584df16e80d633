// `--retry-failed` (the campaign gone on with, its failed rows made again) sends only what a row lacks,
// through the page's own calls on a sandbox whose third job fails: the row's video.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { createCampaignsDomain } from '../../../electron/services/campaign/campaigns-domain';
import type { CampaignStills } from '../../../electron/services/campaign/campaign-stills';
import { campaignHost, createdPerStep, prospects, smallTemplate } from './campaign-harness';
import { sandboxPerFile } from '../emulator/harness';

// Counted, not drawn: every third job fails (a row's two voiceovers complete, its video fails).
const { dir, sandbox } = sandboxPerFile('studio-campaign-retry-failed-', { jobSeconds: 0.1, failRate: 1 / 3 });
let em: RunningEmulator;
beforeAll(() => {
  em = sandbox();
});

describe('retrying the failed rows of a campaign gone on with', () => {
  it('sends (and prices) only the video of a row whose voiceovers completed', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const host = campaignHost(em, dataDir);
    const sheet = join(dataDir, 'one.csv');
    writeFileSync(
      sheet,
      prospects(em, 1)
        .map((line) => line.join(','))
        .join('\n'),
    );
    const { handlers: h } = createCampaignsDomain(
      { jobs: host.engine, catalogue: host.catalogue, queries: host.queries },
      {
        runner: host.runner,
        openProject: async () => smallTemplate().project,
        pathOf: (ref) => (ref === 'file:///granted/one.csv' ? sheet : null),
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
        stills: {} as CampaignStills,
      },
    );
    const input = {
      projectId: 'p1',
      key: 'campaign-retry',
      file: 'file:///granted/one.csv',
      label: 'one.csv',
      fileName: '{{row}} - {{First name}}',
      outDir: join(dataDir, 'out'),
      concurrency: 1,
    };
    await h['campaigns.create'](input, { by: 'user', credits: null });
    const first = await host.runner.run('campaign-retry');
    expect(first.rows[0].state).toBe('failed');
    expect([...createdPerStep(dataDir).keys()].sort()).toEqual([
      '0:video::0',
      '0:voiceover:scene-1:0',
      '0:voiceover:scene-2:0',
    ]);

    const again = { ...input, retryFailed: true };
    expect((await h['campaigns.quote'](again)).items.map((i) => [i.action, i.count])).toEqual([['avatar-video', 1]]);
    await h['campaigns.create'](again, { by: 'user', credits: null });
    const second = await host.runner.run('campaign-retry');
    expect(second.rows[0].state).toBe('done');
    expect([...createdPerStep(dataDir).keys()].sort()).toEqual([
      '0:video::0',
      '0:video::1',
      '0:voiceover:scene-1:0',
      '0:voiceover:scene-2:0',
    ]);
    await host.stop();
  }, 120_000);
});
