// A campaign of 100,000 rows chosen the way the page and `campaign run` choose a sheet: the sheet is taken
// whole (not refused at a voice batch's 10,000 rows), the campaign's check reads every row of it, and a
// voice batch still refuses it with its own limit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_ROWS } from '../../../electron/services/voices/batch-input';
import { smallTemplate } from '../campaign/campaign-harness';
import { ownerWithLogo } from './owner-fixture';

const here = mkdtempSync(join(tmpdir(), 'studio-campaign-size-'));
afterAll(() => rmSync(here, { recursive: true, force: true }));

describe('a campaign of 100,000 rows', () => {
  it('is chosen and checked whole', async () => {
    const { owner, logo } = await ownerWithLogo(here);
    try {
      const lines = Array.from({ length: 100_000 }, (_, i) => `Name${i + 1},Co ${i + 1},Ava,SandboxBen,${logo}`);
      writeFileSync(join(here, 'rows.csv'), ['First name,company,voice,avatar,logo', ...lines].join('\n'));
      const sheet = await owner.studio.domains.importSheetPath(join(here, 'rows.csv'));
      expect(sheet.lines).toBeGreaterThan(MAX_BATCH_ROWS);
      const check = await owner.call('campaigns.check', {
        project: smallTemplate().project,
        file: sheet.url,
        label: 'rows.csv',
        fileName: '{{row}} - {{First name}}',
        outDir: join(here, 'videos'),
        concurrency: 2,
      });
      expect(check.problems).toEqual([]);
      expect(check.rows).toHaveLength(100_000);
      expect(check.rows.filter((row) => row.problems.length > 0)).toEqual([]);
      // The same sheet as a voice batch: refused by the batch's own limit, saying what to do.
      await expect(
        owner.call('batches.check', {
          file: sheet.url,
          label: 'rows.csv',
          defaults: {},
          concurrency: 4,
          template: '{{row}}',
        }),
      ).rejects.toThrow(/more than 10,000 rows.*split it/);
    } finally {
      await owner.close();
    }
  }, 120_000);
});
