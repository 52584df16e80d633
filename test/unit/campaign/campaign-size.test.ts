// A team's campaign of 100,000 rows is one campaign: read whole from its sheet, and one row more is refused
// with a message that says what to do.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { campaignTable, MAX_CAMPAIGN_ROWS } from '../../../electron/common/campaign/rows';
import { variableKey } from '../../../electron/common/campaign/variables';
import { readSheetFile } from '../../../electron/services/sheets/read-sheet';

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sheet(rows: number): string {
  const path = join(dir, `rows-${rows}.csv`);
  const lines = Array.from({ length: rows }, (_, i) => `Name${i + 1},Company ${i + 1}`);
  writeFileSync(path, ['First name,company', ...lines].join('\n'));
  return path;
}

const variables = ['First name', 'company'].map((name) => ({ name, key: variableKey(name), places: [] }));

describe('the size of one campaign', () => {
  it('takes a sheet of 100,000 rows whole', async () => {
    expect(MAX_CAMPAIGN_ROWS).toBe(100_000);
    const read = await readSheetFile(sheet(100_000), { maxRows: MAX_CAMPAIGN_ROWS });
    const table = campaignTable(read.rows, variables, {}, read.lines);
    expect(table.problems).toEqual([]);
    expect(table.rows).toHaveLength(100_000);
    expect(table.rows.at(-1)?.values).toMatchObject({ company: 'Company 100000' });
  });

  it('refuses one row more, saying the sheet must be split', async () => {
    await expect(readSheetFile(sheet(100_001), { maxRows: MAX_CAMPAIGN_ROWS })).rejects.toThrow(
      /more than 100,000 rows.*split it/,
    );
  });
});
