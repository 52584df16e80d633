// `studio campaign status DIR` on a campaign started in the studio (the Campaigns page's call, not
// `campaign run`): the command sees the studio's campaigns, through the open studio or on its data
// folder once the studio has closed, as the page sees them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { smallTemplate } from '../campaign/campaign-harness';
import { ownerWithLogo } from './owner-fixture';
import { until } from '../../wait';
import { creditsText } from '../../../electron/common/jobs/cost-model';

const here = mkdtempSync(join(tmpdir(), 'studio-campaign-status-'));
afterAll(() => rmSync(here, { recursive: true, force: true }));

describe('studio campaign status', () => {
  it('describes a campaign the studio started into the folder, beside the open studio and after it closed', async () => {
    // The page's way in: a picture and a spreadsheet the user chose, a template of the library.
    const { owner, logo } = await ownerWithLogo(here);
    const dataDir = owner.dataDir;
    try {
      writeFileSync(
        join(here, 'prospects.csv'),
        `First name,company,voice,avatar,logo\nAna,Acme,Ava,SandboxBen,${logo}\n,Beta,Ava,SandboxBen,${logo}\n`,
      );
      const sheet = await owner.studio.domains.importSheetPath(join(here, 'prospects.csv'));
      const outDir = join(here, 'videos');
      const input = {
        project: smallTemplate().project,
        file: sheet.url,
        label: 'prospects.csv',
        fileName: '{{row}} - {{First name}}',
        outDir,
        concurrency: 2,
      };
      const started = await owner.call('campaigns.create', input, { by: 'script' });
      await until(
        'the campaign to finish',
        async () => (await owner.call('campaigns.get', started.id)).state === 'finished',
      );

      const beside = await owner.cli(['campaign', 'status', 'videos'], { cwd: here });
      expect(beside.code, beside.err.join('\n')).toBe(EXIT.ok);
      expect(beside.out[0]).toBe('Campaign "prospects.csv" (finished): 1 done, 1 invalid of 2 rows');
      expect(beside.out[1]).toMatch(/^\[#+\] 100% 1 done, 1 not sent \(check\) of 2 rows/);
      // What the service charged the made row, as the page's status sums it: not a price, nor nothing.
      const { pace } = await owner.call('campaigns.status', started.id);
      expect(pace.spent).toBeGreaterThan(0);
      expect(beside.out[1]).toContain(`≈ ${creditsText(pace.spent)} in all (from the charges so far)`);
      expect(beside.out.join('\n')).toContain('{{First name}} is empty');
    } finally {
      await owner.close();
    }

    // The studio closed: the command reads the same data folder's records itself.
    const lines = { out: [] as string[], err: [] as string[] };
    const io: CliIo = { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: here };
    const alone = await runCli(['campaign', 'status', 'videos', '--json', '--data-dir', dataDir], io);
    expect(alone, lines.err.join('\n')).toBe(EXIT.ok);
    const json = JSON.parse(lines.out.join('\n')) as { label: string; counts: Record<string, number> };
    expect(json).toMatchObject({ label: 'prospects.csv', counts: { done: 1, invalid: 1 } });
  }, 180_000);
});
