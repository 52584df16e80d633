import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { JobSubmission, JobView, SubmitResult } from '@common/bridge/jobs';
import { campaignFormats, formatFileName, queuedFormatsProblems } from '@common/campaign/campaign-formats';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { addFormat } from '@common/composition/formats';
import { CampaignRows } from '../../../electron/services/campaign/campaign-rows';
import { campaignManifestCsv } from '../../../electron/services/campaign/campaign-manifest';
import { campaignQuote, newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { rowFiles } from '../../../electron/services/campaign/row-files';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import { loadTemplate } from './template-fixture';
import { runsIn } from '../rows/folder-runs';

/** The job engine answered by hand: each create waits at the "service" until the test ends it. */
class HandEngine {
  jobs: JobView[] = [];
  onEnd: (job: JobView) => void = () => undefined;

  list(): JobView[] {
    return this.jobs;
  }

  async submit(submission: JobSubmission): Promise<SubmitResult> {
    const n = this.jobs.length + 1;
    const job = {
      ...{ id: `job-${n}`, kind: submission.kind, purpose: submission.purpose, request: submission.body },
      ...{ createdAt: n, phase: 'queued', remoteId: `r${n}`, resultUrl: null, expiresAt: null },
      ...{ chargedCredits: null, error: null },
    } as unknown as JobView;
    this.jobs.push(job);
    return { status: 'submitted', job };
  }

  /** Ends every job at the service; `fails` picks those the service could not make. */
  endAll(fails: (job: JobView) => boolean = () => false): void {
    for (const job of this.jobs.filter((j) => j.phase === 'queued')) {
      const failed = fails(job);
      Object.assign(
        job,
        failed
          ? { phase: 'failed', error: { code: 1015, endpoint: null, message: 'x', explanation: 'it broke' } }
          : { phase: 'completed', resultUrl: `https://cdn.example/${job.id}`, expiresAt: Date.now() + 86_400_000 },
        { chargedCredits: failed ? null : 2 },
      );
      this.onEnd(job);
    }
  }
}

const formatOf = (job: JobView) => (job.purpose.type === 'campaign-row' ? (job.purpose.format ?? 'edited') : '');
const sizesIn = (body: unknown) =>
  new Set([...JSON.stringify(body).matchAll(/"width":(\d+),"height":(\d+),"duration"/g)].map((m) => `${m[1]}x${m[2]}`));

/** A two-row campaign of the greeting template (16:9) made in 16:9, 9:16 and 1:1. */
function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-campaign-formats-'));
  const template = loadTemplate();
  let project = addFormat(template.project, { width: 1080, height: 1920 });
  project = addFormat(project, { width: 1080, height: 1080 });
  const engine = new HandEngine();
  const saved: string[] = [];
  const runner = new CampaignRows({
    rows: new RowEngine({
      jobs: engine,
      balanceReadings: { clock: { now: () => 0 } },
    }),
    runs: runsIn(dataDir),
    prepare: async (body) => body,
    saveRow: async (record, row) => {
      for (const file of rowFiles(record, row)) saved.push(`${file.fileName} <- ${file.url}`);
    },
  });
  engine.onEnd = (job) => void runner.jobEnded(job);
  const lines = [
    ['First name', 'company', 'voice', 'avatar', 'logo'],
    ['Ana', 'Co', 'sandbox_ava', 'SandboxBen', 'https://cdn.example/logo.png'],
    ['Bo', 'Co', 'sandbox_ava', 'SandboxBen', 'https://cdn.example/logo.png'],
  ];
  const withFormats = { ...template, project };
  const table = campaignTable(lines, columnVariables(withFormats));
  const filled = fillRows(withFormats, table.rows, { voice: null, avatar: null });
  const record = newCampaignRecord({
    id: 'formats',
    label: 'people.csv',
    template: withFormats,
    check: { rows: checkRows(filled, new Map()), voiceIds: {} },
    sheetFolder: null,
    outDir: join(dataDir, 'out'),
    concurrency: 2,
  });
  const rounds = async (fails?: (job: JobView) => boolean) => {
    for (let i = 0; i < 6; i += 1) {
      await runner.idle();
      engine.endAll(fails);
    }
  };
  return { engine, runner, record, saved, rounds };
}

describe('a campaign of a project in several formats', () => {
  it('names each format, the edited one keeping the name asked for', () => {
    const { record } = setup();
    expect(campaignFormats(record.template.project).map((f) => [f.key, f.tag])).toEqual([
      [null, '16x9'],
      ['1080x1080', '1x1'],
      ['1080x1920', '9x16'],
    ]);
    expect(formatFileName('1 - Ana.mp4', { key: '1080x1920', tag: '9x16' })).toBe('1 - Ana (9x16).mp4');
    expect(formatFileName('1 - Ana.mp4', { key: null, tag: '16x9' })).toBe('1 - Ana.mp4');
  });

  it('asks one price for every format of every row: the voiceovers once, a video per format', () => {
    const { record } = setup();
    // The greeting speaks in both scenes: 2 voiceovers a row, shared by its 3 videos.
    expect(campaignQuote(record)).toEqual([
      { action: 'tts', count: 4 },
      { action: 'avatar-video', count: 6 },
    ]);
  });

  it('makes each row in every format, each body at its size, and the manifest names every file on its line', async () => {
    const { engine, runner, record, saved, rounds } = setup();
    await runner.create(record);
    const run = runner.run('formats');
    await rounds();
    const done = await run;
    expect(done.rows.map((r) => r.state)).toEqual(['done', 'done']);
    const videos = engine.jobs.filter((j) => j.kind === 'avatar-video');
    expect(videos.map(formatOf).sort()).toEqual([
      '1080x1080',
      '1080x1080',
      '1080x1920',
      '1080x1920',
      'edited',
      'edited',
    ]);
    for (const job of videos) {
      const { width, height } = record.template.project.output;
      const want = formatOf(job) === 'edited' ? `${width}x${height}` : formatOf(job);
      expect(sizesIn(job.request)).toEqual(new Set([want]));
    }
    // Voiceovers are made once per row and spoken in every format.
    expect(engine.jobs.filter((j) => j.kind === 'tts')).toHaveLength(4);
    expect(saved.map((s) => s.split(' <- ')[0]).sort()).toEqual([
      '1 - Ana (1x1).mp4',
      '1 - Ana (9x16).mp4',
      '1 - Ana.mp4',
      '2 - Bo (1x1).mp4',
      '2 - Bo (9x16).mp4',
      '2 - Bo.mp4',
    ]);
    // Every file saved from its own format's result.
    for (const line of saved) {
      const [file, url] = line.split(' <- ');
      const job = engine.jobs.find((j) => j.resultUrl === url)!;
      expect(file.includes('(9x16)') ? '1080x1920' : file.includes('(1x1)') ? '1080x1080' : 'edited').toBe(
        formatOf(job),
      );
    }
    const csv = Papa.parse<Record<string, string>>(campaignManifestCsv(done, engine.jobs).replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(csv.data).toHaveLength(2);
    expect(csv.meta.fields).toEqual(expect.arrayContaining(['file', 'link', 'file_1x1', 'link_1x1', 'file_9x16']));
    expect(csv.data[0]).toMatchObject({
      file: '1 - Ana.mp4',
      file_9x16: '1 - Ana (9x16).mp4',
      file_1x1: '1 - Ana (1x1).mp4',
    });
    expect(csv.data[1].link_9x16).toMatch(/^https:\/\/cdn\.example\/job-/);
    // Every video of the row is in its cost: 2 voiceovers and 3 videos at 2 credits.
    expect(csv.data[0].cost_credits).toBe('10');
  });

  it('fails a row whose format failed, naming it, and its retry pays only for that format', async () => {
    const { engine, runner, record, rounds } = setup();
    await runner.create(record);
    const run = runner.run('formats');
    await rounds(
      (job) => formatOf(job) === '1080x1920' && job.purpose.type === 'campaign-row' && job.purpose.row === 1,
    );
    const first = await run;
    expect(first.rows[1]).toMatchObject({ state: 'failed', problems: ['the 9x16 video: the video failed (it broke)'] });
    const before = engine.jobs.length;
    await runner.retryRow('formats', 1);
    const again = runner.run('formats');
    await rounds();
    expect((await again).rows.map((r) => r.state)).toEqual(['done', 'done']);
    const sent = engine.jobs.slice(before);
    expect(sent.map((j) => [j.kind, formatOf(j)])).toEqual([['avatar-video', '1080x1920']]);
  });

  it('refuses to go on a queue, which would take one format for another', () => {
    const { record } = setup();
    expect(queuedFormatsProblems(record.template.project)[0]).toMatch(/3 formats \(16x9, 1x1, 9x16\)/);
    expect(queuedFormatsProblems(loadTemplate().project)).toEqual([]);
  });
});
