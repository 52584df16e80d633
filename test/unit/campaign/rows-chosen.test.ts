// A campaign started again for some rows of its sheet (--rows): rows of earlier runs still waiting and
// not named are cancelled with why (nothing of them was sent); named rows and rows already under way or
// done stay as they are; the lists of rows parse as the sheet numbers them, and bad ones say what is wrong.
import { describe, expect, it } from 'vitest';
import type { CampaignRecord, CampaignRowRecord } from '../../../electron/common/campaign/record';
import { parseRowSelection } from '../../../electron/common/campaign/row-selection';
import { leaveUnchosen } from '../../../electron/services/campaign/rows-chosen';
import { campaignRow } from './row-fixture';

const row = (n: number, state: CampaignRowRecord['state'], line?: number): CampaignRowRecord =>
  campaignRow(n, state, line === undefined ? {} : { line });

describe('rows chosen for a run', () => {
  it('cancels only the waiting rows not named, by their sheet numbers', () => {
    const record = {
      rows: [row(0, 'pending'), row(1, 'pending', 5), row(2, 'voiceover', 6), row(3, 'done', 7), row(4, 'pending', 8)],
    } as CampaignRecord;
    const left = leaveUnchosen(record, parseRowSelection('2,5'));
    expect(left.rows.map((r) => r.state)).toEqual(['pending', 'pending', 'voiceover', 'done', 'cancelled']);
    expect(left.rows[4].problems).toEqual([
      'not among the rows this run was given (2,5); a run that includes it makes it',
    ]);
  });

  it('reads rows, ranges and lists, spaces and en dashes allowed', () => {
    expect(parseRowSelection('2-301')).toEqual([[2, 301]]);
    expect(parseRowSelection(' 2 - 10 , 15,20–22')).toEqual([
      [2, 10],
      [15, 15],
      [20, 22],
    ]);
    expect(() => parseRowSelection('')).toThrow('no rows given');
    expect(() => parseRowSelection('2-3-4')).toThrow('"2-3-4" is not a row or a range');
    expect(() => parseRowSelection('2-')).toThrow('"2-" is not a sheet row number');
  });
});
