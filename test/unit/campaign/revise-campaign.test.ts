import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../../electron/common/campaign/record';
import { newCampaignRecord, reviseCampaign } from '../../../electron/services/campaign/campaign-setup';
import { smallTemplate } from './campaign-harness';

const row = (values: Record<string, string>) => ({
  row: 0,
  values,
  fileName: '1 - Ana.mp4',
  problems: [],
  project: smallTemplate().project,
});

function record(values: Record<string, string>, sheetFolder: string | null): CampaignRecord {
  return newCampaignRecord({
    id: 'campaign-x',
    label: 'prospects.csv',
    template: smallTemplate(),
    check: { rows: [row(values)], voiceIds: {} },
    sheetFolder,
    outDir: '/tmp/out',
    concurrency: 2,
  });
}

describe('reviseCampaign', () => {
  it("keeps a done row whose path beside the spreadsheet now comes as the file's link, and the folder it was read from", () => {
    // A campaign a command line started when it read the rows' files itself: paths beside the sheet.
    const started = record({ first_name: 'Ana', logo: 'logo.png' }, '/sheets');
    const done: CampaignRecord = {
      ...started,
      state: 'finished',
      rows: started.rows.map((r) => ({ ...r, state: 'done', savedAt: 1 })),
    };
    // Run again, the rows' files are named to the host and come as their links; the host reads no folder.
    const fresh = record({ first_name: 'Ana', logo: pathToFileURL('/sheets/logo.png').href }, null);
    const revised = reviseCampaign(done, fresh);
    expect(revised.rows.map((r) => [r.state, r.take])).toEqual([['done', 0]]);
    expect(revised.state).toBe('finished');
    expect(revised.sheetFolder).toBe('/sheets');
    // Another file is another value: that row is made again.
    const other = record({ first_name: 'Ana', logo: pathToFileURL('/sheets/other.png').href }, null);
    expect(reviseCampaign(done, other).rows.map((r) => [r.state, r.take])).toEqual([['pending', 1]]);
  });
});
