// The Campaigns page's list over a folder holding one campaign of N rows (issue 68): the time of
// `campaigns.list` and what the host's memory does, as it is (the database counts the rows by state)
// and as it was (every campaign read whole, then counted: CampaignRows.list and campaignSummary). Each
// way runs in a process of its own on the same folder, so one's memory does not hide the other's.
// Run alone: node --import tsx test/bench/campaigns-list.measure.ts [rows]   (default 100,000).
import { join } from 'node:path';
import { campaignSummary } from '../../electron/common/bridge/campaigns';
import type { CampaignRowRecord } from '../../electron/common/campaign/record';
import { CampaignRows, campaignRuns } from '../../electron/services/campaign/campaign-rows';
import { newCampaignRecord } from '../../electron/services/campaign/campaign-setup';
import { createCampaignsDomain, type CampaignsDomainDeps } from '../../electron/services/campaign/campaigns-domain';
import { openRecords } from '../../electron/services/records/open-ledger';
import { RowEngine } from '../../electron/services/rows/engine/row-engine';
import { checkRows, fillRows } from '../../electron/common/campaign/row-check';
import { campaignTable } from '../../electron/common/campaign/rows';
import { columnVariables } from '../../electron/common/campaign/variables';
import { HandService } from '../unit/campaign/hand-service';
import { loadTemplate } from '../unit/campaign/template-fixture';
import { listWays, timeListing, type ListWay } from './list-ways';

const STATES: CampaignRowRecord['state'][] = ['done', 'done', 'done', 'failed', 'pending', 'video', 'cancelled'];

/** The folder: one finished campaign of `rows` rows, its rows in mixed states, made from one checked row. */
async function make(dataDir: string, rows: number): Promise<void> {
  const template = loadTemplate();
  const lines = [
    ['First name', 'company', 'voice', 'avatar', 'logo', 'email'],
    ['Ana', 'Co', 'sandbox_ava', 'SandboxBen', 'https://cdn.example/logo.png', 'ana@example.com'],
  ];
  const table = campaignTable(lines, columnVariables(template));
  const filled = fillRows(template, table.rows, { voice: null, avatar: null });
  const record = newCampaignRecord({
    id: 'big',
    label: 'big.csv',
    template,
    check: { rows: checkRows(filled, new Map()), voiceIds: {}, unused: table.unused },
    sheetFolder: null,
    outDir: join(dataDir, 'out'),
    concurrency: 2,
  });
  const first = record.rows[0] as CampaignRowRecord;
  const all = Array.from({ length: rows }, (_, row) => ({
    ...first,
    row,
    state: STATES[row % STATES.length] as CampaignRowRecord['state'],
    fileName: `${row + 1} - Ana.mp4`,
    values: { ...first.values, 'First name': `Ana ${row}` },
  }));
  const store = campaignRuns(openRecords(dataDir).runs);
  await store.putRun({ ...record, state: 'finished', rows: all });
  await store.flush();
}

/** One way of listing, in this process: its time, and the host's memory before and after. */
async function list(dataDir: string, way: ListWay): Promise<void> {
  const runner = new CampaignRows({
    rows: new RowEngine({ jobs: new HandService() }),
    runs: openRecords(dataDir).runs,
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
  const call = async () =>
    way === 'summaries' ? domain['campaigns.list']() : (await runner.list()).map(campaignSummary);
  await timeListing(way, call);
}

void listWays({ run: 'campaign', make, list });
