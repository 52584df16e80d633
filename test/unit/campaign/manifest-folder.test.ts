import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { CampaignRows } from '../../../electron/services/campaign/campaign-rows';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import { HandService } from './hand-service';
import { loadTemplate } from './template-fixture';
import { runsIn } from '../rows/folder-runs';

/**
 * Campaigns on a hand-answered service whose rows' videos are written into one folder; given the data
 * folder and the service of a studio that stopped, it is that studio started again.
 */
function studio(again?: { dataDir: string; service: HandService }) {
  const dataDir = again?.dataDir ?? mkdtempSync(join(tmpdir(), 'studio-campaign-manifest-'));
  const outDir = join(dataDir, 'out');
  const service = again?.service ?? new HandService();
  const runner = new CampaignRows({
    rows: new RowEngine({
      jobs: service,
    }),
    runs: runsIn(dataDir),
    prepare: async (body) => body,
    saveRow: async (record, row) => {
      mkdirSync(record.outDir, { recursive: true });
      writeFileSync(join(record.outDir, row.fileName), `video of ${row.resultUrl}`);
    },
  });
  service.onEnd = (job) => void runner.jobEnded(job);
  const template = loadTemplate();
  const campaign = (id: string, people: readonly string[]) => {
    const lines = [
      ['First name', 'company', 'voice', 'avatar', 'logo', 'email'],
      ...people.map((p) => [p, 'Co', 'sandbox_ava', 'SandboxBen', 'https://cdn.example/logo.png', `${p}@example.com`]),
    ];
    const table = campaignTable(lines, columnVariables(template));
    const filled = fillRows(template, table.rows, { voice: null, avatar: null });
    return newCampaignRecord({
      id,
      label: `${id}.csv`,
      template,
      // What the page says it keeps for the manifest only: the columns no variable reads.
      check: { rows: checkRows(filled, new Map()), voiceIds: {}, unused: table.unused },
      sheetFolder: null,
      outDir,
      concurrency: 2,
    });
  };
  /** Ends the waiting jobs of these rows until nothing of theirs moves. */
  const finishRows = async (rows: readonly number[]) => {
    for (let i = 0; i < 6; i += 1) {
      await runner.idle();
      service.end([], rows);
    }
    await runner.idle();
  };
  const manifest = () =>
    Papa.parse<Record<string, string>>(readFileSync(join(outDir, 'manifest.csv'), 'utf8').replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data;
  return { runner, campaign, finishRows, manifest, outDir, dataDir, service };
}

describe("a campaign's manifest", () => {
  it('is written as rows end, keeps the columns the page keeps, and still describes the folder after a second campaign into it is cancelled', async () => {
    const { runner, campaign, finishRows, manifest, outDir } = studio();
    await runner.create(campaign('first', ['Ana', 'Bo']));
    const firstRun = runner.run('first');
    await finishRows([0]);
    // One row ended, the other still under way: the manifest says so already, email included.
    // Numbered as the spreadsheet numbers them: the header is sheet row 1.
    expect(manifest().map((l) => [l.sheet_row, l['First name'], l.email, l.status, l.file])).toEqual([
      ['2', 'Ana', 'Ana@example.com', 'done', '1 - Ana.mp4'],
      ['3', 'Bo', 'Bo@example.com', 'voiceover', ''],
    ]);
    await finishRows([1]);
    await firstRun;

    // A second campaign of other people into the same folder, cancelled after its first row.
    await runner.create(campaign('second', ['Cy', 'Di', 'Ed']));
    const secondRun = runner.run('second');
    await finishRows([0]);
    await runner.cancel('second');
    await finishRows([1, 2]);
    await secondRun;
    await runner.idle();

    const videos = readdirSync(outDir).filter((n) => n.endsWith('.mp4'));
    const lines = manifest();
    // Every video in the folder is named by a done line, whichever campaign made it, and no other.
    expect(
      lines
        .filter((l) => l.status === 'done')
        .map((l) => l.file)
        .sort(),
    ).toEqual(videos.sort());
    expect(videos.sort()).toEqual(['1 - Ana.mp4', '1 - Cy.mp4', '2 - Bo.mp4']);
    // Each line's cost is what its own campaign's jobs for that row were charged (2 credits a job): a
    // cancelled row paid for the voiceover it had sent.
    expect(lines.map((l) => [l['First name'], l.status, l.campaign, l.cost_credits])).toEqual([
      ['Cy', 'done', 'second', '6'],
      ['Di', 'cancelled', 'second', '2'],
      ['Ed', 'cancelled', 'second', '2'],
      ['Ana', 'done', 'first', '6'],
      ['Bo', 'done', 'first', '6'],
    ]);
    expect(existsSync(join(outDir, 'manifest.csv'))).toBe(true);
  });

  it('is written whole when a studio that stopped mid-run starts again and the campaign goes on', async () => {
    const first = studio();
    await first.runner.create(first.campaign('resumed', ['Ana', 'Bo']));
    void first.runner.run('resumed');
    await first.runner.idle();
    await first.runner.flush();
    first.runner.stop();
    // The studio stopped within a pause: the manifest on disk is behind the folder.
    writeFileSync(join(first.outDir, 'manifest.csv'), 'behind');

    // Started again, the campaign goes on with both rows waiting at the service: no row changes.
    const again = studio(first);
    await again.runner.resumeAll();
    await again.runner.idle();
    expect(again.manifest().map((l) => [l['First name'], l.status])).toEqual([
      ['Ana', 'voiceover'],
      ['Bo', 'voiceover'],
    ]);
  });

  it('says a cancel at once: the rows it cancelled are in it when the cancel returns', async () => {
    const { runner, campaign, manifest } = studio();
    await runner.create(campaign('stopped', ['Ana', 'Bo']));
    await runner.cancel('stopped');
    expect(manifest().map((l) => [l['First name'], l.status])).toEqual([
      ['Ana', 'cancelled'],
      ['Bo', 'cancelled'],
    ]);
  });
});
