// The campaigns' list reads no campaign's rows (issue 68): `campaigns.list` counts them in the database,
// a start on a folder opens only the campaigns saving there, and a start of the studio only those still
// running. What the list shows is what the records held whole say.
import { afterEach, describe, expect, it } from 'vitest';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { campaignSummary } from '../../../electron/common/bridge/campaigns';
import type { CampaignRecord, CampaignRowRecord } from '../../../electron/common/campaign/record';
import { CampaignRows, campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { createCampaignsDomain, type CampaignsDomainDeps } from '../../../electron/services/campaign/campaigns-domain';
import type { Sqlite } from '../../../electron/services/records/database';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import { removeTempDirs, tempDir } from '../records/ledger-fixtures';
import { runsIn } from '../rows/folder-runs';
import { HandService } from './hand-service';
import { loadTemplate } from './template-fixture';
import { countRunRowReads } from '../records/run-row-reads';

afterEach(removeTempDirs);

const STATES: CampaignRowRecord['state'][] = ['done', 'failed', 'pending', 'done', 'cancelled', 'video', 'invalid'];

/** A campaign of `rows` rows saving into `outDir`, its rows in mixed states. */
function campaign(id: string, outDir: string, rows: number, state: CampaignRecord['state']): CampaignRecord {
  const template = loadTemplate();
  const lines = [
    ['First name', 'company', 'voice', 'avatar', 'logo', 'email'],
    ...Array.from({ length: rows }, (_, n) => [
      `P${n}`,
      'Co',
      'sandbox_ava',
      'SandboxBen',
      'https://cdn.example/l.png',
      'e',
    ]),
  ];
  const table = campaignTable(lines, columnVariables(template));
  const filled = fillRows(template, table.rows, { voice: null, avatar: null });
  const record = newCampaignRecord({
    id,
    label: `${id}.csv`,
    template,
    check: { rows: checkRows(filled, new Map()), voiceIds: {}, unused: table.unused },
    sheetFolder: null,
    outDir,
    concurrency: 2,
  });
  return { ...record, state, rows: record.rows.map((r, n) => ({ ...r, state: STATES[n % STATES.length] })) };
}

/** The folder's campaigns as a studio started on it finds them, and every read of a run's rows its database made. */
function studioOn(dataDir: string) {
  const runs = runsIn(dataDir);
  const db = (runs as unknown as { database: { db: Sqlite } }).database.db;
  const rowReads = countRunRowReads(db);
  const runner = new CampaignRows({
    rows: new RowEngine({ jobs: new HandService() }),
    runs,
    prepare: async (body) => body,
    saveRow: async () => undefined,
  });
  const domain = createCampaignsDomain({ jobs: {}, catalogue: {}, queries: {} } as never, {
    runner,
    openProject: () => Promise.reject(new Error('not asked here')),
    pathOf: () => null,
    checkLinks: async () => [],
    stills: {} as CampaignsDomainDeps['stills'],
  }).handlers;
  /** How many times a run's rows were read since the last call. */

  return { runner, domain, rowReads };
}

describe("the campaigns' list", () => {
  // Fails on the list that read every campaign whole to count its rows (runner.list, then campaignSummary):
  // the rows of all three campaigns were read.
  it('shows each campaign as its record held whole says, and reads no row', async () => {
    const dataDir = tempDir('campaign-list-');
    const [a, b] = [tempDir('out-a-'), tempDir('out-b-')];
    const store = campaignRuns(runsIn(dataDir));
    const records = [
      { ...campaign('first', a, 40, 'finished'), createdAt: 1 },
      { ...campaign('second', b, 7, 'paused'), createdAt: 2 },
      { ...campaign('third', a, 12, 'cancelled'), createdAt: 3 },
    ];
    for (const record of records) await store.putRun(record);
    await store.flush();

    const { runner, domain, rowReads } = studioOn(dataDir);
    expect(await domain['campaigns.list']()).toEqual(records.reverse().map(campaignSummary));
    expect(rowReads()).toBe(0);
    // A start on a folder opens the campaigns saving there alone.
    expect((await runner.inFolder(a)).map((c) => [c.id, c.rows.length])).toEqual([
      ['third', 12],
      ['first', 40],
    ]);
    expect(rowReads()).toBe(2);
    // None of them is running: a start of the studio opens none.
    await runner.resumeAll();
    expect(rowReads()).toBe(0);
  });
});
