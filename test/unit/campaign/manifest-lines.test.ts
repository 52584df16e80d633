// A manifest is rewritten whole while its campaign runs, and a write used to build every line again: at
// 100,000 rows about 2 s, a tenth of the studio's thread by its pacing then (a thirtieth now). A line is now built again only
// when its row, its cost or the header changed. What is written must not change: the file after any
// sequence of changes is the one built afresh from the same campaign, tricky cells included.
import Papa from 'papaparse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignRecord, CampaignRowRecord } from '@common/campaign/record';
import type { JobView } from '@common/bridge/jobs';
import { campaignManifestCsv } from '../../../electron/services/campaign/campaign-manifest';
import { smallTemplate } from './campaign-harness';
import { campaignRow } from './row-fixture';

const ROWS = 300;
const TRICKY = ['=SUM(A1)', 'Zoë, "the boss"', 'two\nlines', '+33 6 12', ' padded ', 'Ana'];

function row(i: number, change: Partial<CampaignRowRecord> = {}): CampaignRowRecord {
  const values = { first_name: TRICKY[i % TRICKY.length]!, email: `p${i}@example.com` };
  return campaignRow(i, 'pending', { line: i + 2, values, fileName: `${i + 1} - P${i}.mp4`, ...change });
}

/** One template for every version of the campaign, as a running campaign keeps it. */
const template = smallTemplate();

function campaign(rows: CampaignRowRecord[]): CampaignRecord {
  return {
    version: 1,
    id: 'c-lines',
    label: 'Lines',
    createdAt: 1,
    target: 'avatar-video',
    template,
    variables: [{ key: 'first_name', name: 'First name' }],
    kept: [{ key: 'email', name: 'email' }],
    sheetFolder: null,
    voiceIds: {},
    outDir: '/tmp/nowhere',
    state: 'running',
    concurrency: 1,
    rows,
  } as unknown as CampaignRecord;
}

const charged = (rowNumber: number, credits: number) =>
  ({ purpose: { type: 'campaign-row', campaignId: 'c-lines', row: rowNumber }, chargedCredits: credits }) as JobView;

const done = (i: number) =>
  row(i, { state: 'done', resultUrl: `https://files.example/${i}.mp4`, expiresAt: 1_800_000_000_000, savedAt: 2 });

/** The same campaign in objects never seen before: its manifest is built afresh, line by line. */
const afresh = (record: CampaignRecord) => structuredClone(record);

afterEach(() => vi.restoreAllMocks());

describe("a running campaign's manifest", () => {
  it('after any changes is the file built afresh, and builds again only the lines that changed', () => {
    const unparse = vi.spyOn(Papa, 'unparse');
    let rows = Array.from({ length: ROWS }, (_, i) => row(i));
    let jobs: JobView[] = [];
    const first = campaignManifestCsv(campaign(rows), jobs);
    expect(first).toBe(campaignManifestCsv(afresh(campaign(rows)), jobs));

    // Three rows end, and a row that ended earlier is charged only now.
    rows = rows.map((r, i) => (i === 0 || i === 7 || i === 150 ? done(i) : r));
    const before = unparse.mock.calls.length;
    campaignManifestCsv(campaign(rows), jobs);
    // The header and the three rows; nothing else.
    expect(unparse.mock.calls.length - before).toBe(4);
    jobs = [charged(7, 12.5)];
    const later = unparse.mock.calls.length;
    const now = campaignManifestCsv(campaign(rows), jobs);
    expect(unparse.mock.calls.length - later).toBe(2);
    expect(now).toBe(campaignManifestCsv(afresh(campaign(rows)), jobs));

    // The header, a line a row, and the file's last line end: no blank line anywhere.
    expect(now.split('\r\n')).toHaveLength(ROWS + 2);
    expect(now.endsWith('\r\n') && !now.includes('\r\n\r\n')).toBe(true);
    const lines = Papa.parse<Record<string, string>>(now.replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(lines.data).toHaveLength(ROWS);
    expect(lines.data[7]).toMatchObject({ status: 'done', cost_credits: '12.5', link: 'https://files.example/7.mp4' });
    // Cells as typed, and none a formula: "=SUM(A1)" stays text.
    expect(lines.data[0]!['First name']).toBe("'=SUM(A1)");
    expect(lines.data[1]!['First name']).toBe('Zoë, "the boss"');
    expect(lines.data[2]!['First name']).toBe('two\nlines');
  });

  it('gives every line the new column when a bucket copy first appears', () => {
    const rows = Array.from({ length: ROWS }, (_, i) => row(i));
    const without = campaignManifestCsv(campaign(rows), []);
    expect(without.split('\r\n')[0]).not.toContain('bucket');
    const copied = rows.map((r, i) => (i === 3 ? { ...done(3), bucketCopy: 's3://clips/3.mp4' } : r));
    const withBucket = campaignManifestCsv(campaign(copied), []);
    expect(withBucket).toBe(campaignManifestCsv(afresh(campaign(copied)), []));
    const parsed = Papa.parse<Record<string, string>>(withBucket.replace(/^\uFEFF/, ''), { header: true });
    expect(parsed.meta.fields).toContain('bucket');
    expect(parsed.data[3]!.bucket).toBe('s3://clips/3.mp4');
    expect(
      withBucket
        .split('\r\n')
        .filter(Boolean)
        .every((line) => line.split(',').length >= 8),
    ).toBe(true);
  });
});
