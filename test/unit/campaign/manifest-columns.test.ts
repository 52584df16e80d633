// A campaign's manifest keeps every column of the sheet: one named like a column of the manifest's own
// ("status", "link", "campaign"…) lost its values to the studio's before, under a header written twice.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { CampaignRecord } from '@common/campaign/record';
import { campaignManifestCsv } from '../../../electron/services/campaign/campaign-manifest';
import { smallTemplate } from './campaign-harness';

const record = {
  version: 1,
  id: 'c-cols',
  label: 'Columns',
  createdAt: 1,
  target: 'avatar-video',
  template: smallTemplate(),
  variables: [{ key: 'first_name', name: 'First name' }],
  kept: [
    { key: 'status', name: 'status' },
    { key: 'link', name: 'link' },
    { key: 'email', name: 'email' },
  ],
  sheetFolder: null,
  voiceIds: {},
  outDir: '/tmp/nowhere',
  state: 'running',
  concurrency: 1,
  rows: [
    {
      row: 0,
      line: 2,
      values: { first_name: 'Ana', status: 'lead', link: 'https://crm.example/ana', email: 'ana@example.com' },
      fileName: '1 - Ana.mp4',
      state: 'done',
      problems: [],
      take: 0,
      voiceovers: {},
      resultUrl: 'https://files.example/ana.mp4',
      expiresAt: null,
      savedAt: 1,
    },
  ],
} as unknown as CampaignRecord;

describe("a campaign manifest's columns", () => {
  it("keeps a sheet column named like one of the manifest's, under a name of its own", () => {
    const csv = campaignManifestCsv(record, []).replace(/^\uFEFF/, '');
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
    const fields = parsed.meta.fields ?? [];
    expect(fields.length).toBe(new Set(fields).size);
    expect(parsed.data[0]).toMatchObject({
      'First name': 'Ana',
      'status (sheet)': 'lead',
      'link (sheet)': 'https://crm.example/ana',
      email: 'ana@example.com',
      status: 'done',
      link: 'https://files.example/ana.mp4',
    });
  });
});
