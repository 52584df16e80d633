import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../../electron/common/campaign/record';
import { newCampaignRecord, reviseCampaign } from '../../../electron/services/campaign/campaign-setup';
import { smallTemplate } from './campaign-harness';
import { nothingToRetry, OUTCOME_UNKNOWN } from '../../../electron/common/campaign/row-review';

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

  it('goes by identity: a changed template makes the row again, a changed column no variable reads keeps it, and a failed row is retried by the given retry', () => {
    const started = record({ first_name: 'Ana', email: 'a@x.com' }, null);
    const done: CampaignRecord = {
      ...started,
      rows: started.rows.map((r) => ({ ...r, state: 'done', savedAt: 1, resultUrl: 'https://r/1' })),
    };
    const newEmail = reviseCampaign(done, record({ first_name: 'Ana', email: 'ana@x.com' }, null));
    expect(newEmail.rows.map((r) => [r.state, r.take, r.values.email])).toEqual([['done', 0, 'ana@x.com']]);

    const template = smallTemplate();
    const edited = newCampaignRecord({
      ...{ id: 'campaign-x', label: 'prospects.csv', sheetFolder: null, outDir: '/tmp/out', concurrency: 2 },
      template: { ...template, project: { ...template.project, name: `${template.project.name} v2` } },
      check: { rows: [row({ first_name: 'Ana', email: 'a@x.com' })], voiceIds: {} },
    });
    expect(reviseCampaign(done, edited).rows.map((r) => [r.state, r.take])).toEqual([['pending', 1]]);

    const failed: CampaignRecord = {
      ...started,
      rows: started.rows.map((r) => ({ ...r, state: 'failed', voiceovers: { s1: 'https://v/1' } })),
    };
    const fresh = record({ first_name: 'Ana', email: 'a@x.com' }, null);
    const retried = reviseCampaign(failed, fresh, {
      retryFailed: true,
      retry: (r) => ({ ...r, state: 'pending', take: r.take + 1 }),
    });
    expect(retried.rows.map((r) => [r.state, r.take, r.voiceovers])).toEqual([['pending', 1, { s1: 'https://v/1' }]]);
  });

  // Fails when "retry every failed row" makes a row waiting for review again: its step may already be
  // paid for (a worker stopped between the create's intent and its answer), and nothing can look it up.
  it('leaves a row waiting for review out of retrying the failed rows, unless asked for it by name', () => {
    const started = record({ first_name: 'Ana' }, null);
    const waiting: CampaignRecord = {
      ...started,
      rows: started.rows.map((r) => ({ ...r, state: 'failed', problems: [OUTCOME_UNKNOWN] })),
    };
    const fresh = record({ first_name: 'Ana' }, null);
    const retry = (r: CampaignRecord['rows'][number]) => ({ ...r, state: 'pending' as const, take: r.take + 1 });
    const left = reviseCampaign(waiting, fresh, { retryFailed: true, retry });
    expect(left.rows.map((r) => [r.state, r.take])).toEqual([['failed', 0]]);
    expect(nothingToRetry(waiting.rows)).toContain('1 failed row waits for review');
    const asked = reviseCampaign(waiting, fresh, { retryFailed: true, retryUnknown: true, retry });
    expect(asked.rows.map((r) => [r.state, r.take])).toEqual([['pending', 1]]);
  });
});
