import { afterEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { checkRows, fillRows } from '../../../electron/common/campaign/row-check';
import { campaignTable } from '../../../electron/common/campaign/rows';
import type { CampaignRecord } from '../../../electron/common/campaign/record';
import { columnVariables } from '../../../electron/common/campaign/variables';
import { runFigures } from '../../../electron/common/jobs/run-balance';
import { campaignViewFromLedger, campaignViewFromSums } from '../../../electron/services/campaign/campaign-manifest';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { toJobView } from '../../../electron/services/jobs/job-view';
import { runWorkQuery, workSums, type RunWorkSums } from '../../../electron/common/campaign/campaign-work';
import { SqlJobQueries } from '../../../electron/services/records/job-queries';
import { openLedger } from '../../../electron/services/records/open-ledger';
import {
  AT_SERVICE,
  CHARGED_BY_ROW,
  FIGURES,
  STEPS,
  WORK_ENDED,
  WORK_LIVE,
  WORK_OVER,
  WORK_TAKES,
} from '../../../electron/services/records/run-job-sums';
import type { SqliteLedgerStorage } from '../../../electron/services/records/sqlite-ledger';
import { loadTemplate } from '../campaign/template-fixture';
import { record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const NOW = Date.UTC(2026, 10, 27, 9, 0, 0);
const ROWS = 40;

/** A campaign of ROWS rows whose balance was read from a little before its first job until a while ago. */
function campaign(id: string, ended: boolean): CampaignRecord {
  const template = loadTemplate();
  const lines = [
    ['First name', 'company', 'voice', 'avatar', 'logo'],
    ...Array.from({ length: ROWS }, (_, i) => [
      `P${i}`,
      'Co',
      'sandbox_ava',
      'SandboxBen',
      'https://cdn.example/l.png',
    ]),
  ];
  const filled = fillRows(template, campaignTable(lines, columnVariables(template)).rows, {
    voice: null,
    avatar: null,
  });
  const made = newCampaignRecord({
    id,
    label: 'fixture.csv',
    template,
    check: { rows: checkRows(filled, new Map()), voiceIds: {} },
    sheetFolder: null,
    outDir: '/tmp/out',
    concurrency: 4,
  });
  const states = ['done', 'failed', 'voiceover', 'video', 'pending'] as const;
  return {
    ...made,
    rows: made.rows.map((r, i) => ({ ...r, state: states[i % states.length], take: i % 7 === 0 ? 1 : 0 })),
    balance: {
      connectionId: 'c',
      start: 10_000,
      startedAt: NOW - 600_000,
      latest: 9_000,
      latestAt: NOW - 60_000,
      endedAt: ended ? NOW - 30_000 : null,
    },
  };
}

/**
 * Every kind of job a run leaves: each row's takes and steps, in every phase, charged by the service or
 * by an estimate, priced ahead, refused at its create, with no figure at all; some before the balance's
 * first reading or after its latest; and the jobs of another campaign and of no run beside them.
 */
function fixtureJobs(campaignId: string): JobRecord[] {
  const phases = ['completed', 'failed', 'queued', 'processing', 'submitting', 'outcome-unknown'] as const;
  const jobs: JobRecord[] = [];
  for (let i = 0; i < ROWS * 5; i += 1) {
    const row = i % ROWS;
    const phase = phases[i % phases.length];
    const createdAt = NOW - 700_000 + i * 3_300;
    const ended = phase === 'completed' || phase === 'failed' || phase === 'outcome-unknown';
    const cost = i % 4;
    jobs.push({
      ...record(`${campaignId}-${i}`, phase, createdAt),
      kind: i % 3 === 0 ? 'avatar-video' : 'tts',
      remoteId: phase === 'failed' && i % 2 === 0 ? null : `r${i}`,
      finishedAt: ended ? createdAt + 20_000 + (i % 9) * 1_000 : null,
      polls: i % 11,
      purpose: {
        type: 'campaign-row',
        campaignId,
        row,
        step: i % 3 === 0 ? 'video' : 'voiceover',
        take: i % 7 === 0 ? 1 : 0,
      },
      chargedCredits: cost === 0 ? 2.5 : cost === 1 ? 1.25 : null,
      chargeSource: cost === 1 ? 'estimate' : cost === 0 ? 'service' : null,
      costEstimate: cost === 2 ? { credits: 3, basis: 'published' } : null,
    } as JobRecord);
  }
  // Cut off by a stop before the service answered, priced and not charged: no figure of their own.
  for (const row of [1, 2])
    jobs.push({
      ...record(`${campaignId}-unknown-${row}`, 'outcome-unknown', NOW - 300_000 + row),
      remoteId: null,
      finishedAt: NOW - 290_000,
      purpose: { type: 'campaign-row', campaignId, row, step: 'voiceover', take: 0 },
      costEstimate: { credits: 3, basis: 'published' },
    } as JobRecord);
  jobs.push({ ...record('plain', 'completed', NOW - 1_000), chargedCredits: 99, remoteId: 'rp' });
  return jobs;
}

async function ledgerWith(jobs: readonly JobRecord[]) {
  const ledger = openLedger(tempDir('run-sums-')) as SqliteLedgerStorage;
  for (const job of jobs) void ledger.put(job);
  await ledger.flush();
  const db = ledger.queryable();
  if (!db) throw new Error('no database');
  return { ledger, db };
}

const SUMS = [CHARGED_BY_ROW, AT_SERVICE, STEPS, FIGURES, WORK_ENDED, WORK_OVER, WORK_LIVE, WORK_TAKES];

describe("a campaign's view summed in the database", () => {
  it.each([
    ['running', false],
    ['ended', true],
  ])('says what the view of its jobs read whole says (%s)', async (_name, ended) => {
    const jobs = [...fixtureJobs('c1'), ...fixtureJobs('c2')];
    const { ledger, db } = await ledgerWith(jobs);
    const run = campaign('c1', ended);
    const whole = campaignViewFromLedger(
      run,
      ledger.find({ runId: 'c1' }).map((r) => toJobView(r, NOW)),
      NOW,
    );
    const summed = campaignViewFromSums(run, new SqlJobQueries(db, () => NOW), NOW);
    expect(summed).toEqual(whole);
    // The fixture says something in every figure (an empty run would agree with anything).
    expect(Object.keys(whole.charged).length).toBeGreaterThan(10);
    expect(whole.atService?.steps).toBeGreaterThan(10);
    expect(whole.atService?.unknown).toBeGreaterThan(0);
    expect(whole.balanceNote).toMatch(/add up to/);
    expect(whole.work?.recent.length).toBeGreaterThan(0);
    ledger.close();
  });

  it("sums what its pace needs as the jobs read whole do, reading job by job only the window's and the rows' under way", async () => {
    const jobs = [...fixtureJobs('c1'), ...fixtureJobs('c2')];
    const { ledger, db } = await ledgerWith(jobs);
    const run = campaign('c1', false);
    const query = runWorkQuery(run, NOW);
    const views = ledger.find({ runId: 'c1' }).map((r) => toJobView(r, NOW));
    const inMemory = workSums(views, query);
    const summed = new SqlJobQueries(db, () => NOW).campaignWork(query);
    expect(inOrder(summed)).toEqual(inOrder(inMemory));
    // Every part says something: steps ended lately and before, takes over and past their voiceovers,
    // takes under way with steps running and ended, and fewer jobs read one by one than the run has.
    expect(inMemory.ended.voiceover.recent.steps).toBeGreaterThan(0);
    expect(inMemory.ended.video.all.steps).toBeGreaterThan(inMemory.ended.video.recent.steps);
    expect(inMemory.over.takes).toBeGreaterThan(inMemory.over.pastVoiceovers);
    expect(inMemory.over.pastVoiceovers).toBeGreaterThan(0);
    const takes = [...inMemory.takes.values()];
    expect(takes.some((t) => t.voiceoversRunning.length + t.videosRunning.length > 0)).toBe(true);
    expect(takes.some((t) => t.voiceoversEnded + t.videosEnded > 0)).toBe(true);
    expect(inMemory.live.length).toBeGreaterThan(0);
    expect(inMemory.live.length).toBeLessThan(views.length);
    ledger.close();
  });

  it("sums the figures of the balance's window as runFigures does, a job of unknown outcome with no figure", async () => {
    const jobs = fixtureJobs('c1');
    const { ledger, db } = await ledgerWith(jobs);
    const since = NOW - 600_000;
    const until = NOW - 60_000;
    const inWindow = jobs.filter((j) => j.createdAt >= since && j.createdAt <= until);
    // The fixture has jobs cut off before an answer that carry a price and no charge, inside the window.
    expect(inWindow.some((j) => j.phase === 'outcome-unknown' && j.costEstimate && j.chargedCredits === null)).toBe(
      true,
    );
    const summed = new SqlJobQueries(db).runSums({
      runId: 'c1',
      purposeType: 'campaign-row',
      balance: { since, until },
    });
    const { credits, unknown, later } = summed.figures ?? {};
    expect({ credits, unknown, later }).toEqual(
      runFigures(
        jobs.filter((j) => j.purpose?.type === 'campaign-row'),
        since,
        until,
      ),
    );
    ledger.close();
  });

  it('counts the jobs of each step and phase', async () => {
    const { ledger, db } = await ledgerWith(fixtureJobs('c1'));
    const sums = new SqlJobQueries(db).runSums({ runId: 'c1', purposeType: 'campaign-row' });
    const total = (step: string) => sums.steps.filter((s) => s.step === step).reduce((n, s) => n + s.jobs, 0);
    expect(total('video') + total('voiceover')).toBe(ROWS * 5 + 2);
    expect(total('video')).toBe(Math.ceil((ROWS * 5) / 3));
    ledger.close();
  });

  // Fails when a sum stops reading the run's index (SQLite then reads every job of the folder).
  it("reads the run's index, not every job", async () => {
    const { ledger, db } = await ledgerWith(fixtureJobs('c1'));
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...sampleParams(sql)) as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
    for (const sql of SUMS) {
      // Any index keyed on the run will do (jobs_page_run, or schema step 9's jobs_batch_cost for the charges).
      expect(plan(sql)).toMatch(/SEARCH jobs USING (COVERING )?INDEX \w+ \([^)]*run_id=\?/);
      expect(plan(sql)).not.toMatch(/SCAN jobs(?! USING)/);
    }
    // No figure needs a record: the index holds every column each reads (the rows, steps and polls
    // of schema step 10 included), so none parses the JSON of each of the run's jobs.
    for (const sql of SUMS) expect(plan(sql)).toContain('COVERING INDEX');
    ledger.close();
  });
});

/** Sums as a pace reads them: the order of the jobs and of the takes read one by one says nothing. */
function inOrder(sums: RunWorkSums) {
  const sorted = (numbers: number[]) => [...numbers].sort((a, b) => a - b);
  return {
    ...sums,
    live: sums.live
      .map(({ polls, createdAt, finishedAt }) => ({ polls, createdAt, finishedAt }))
      .sort((a, b) => a.createdAt - b.createdAt || a.polls - b.polls),
    takes: [...sums.takes]
      .map(([key, t]) => [
        key,
        { ...t, voiceoversRunning: sorted(t.voiceoversRunning), videosRunning: sorted(t.videosRunning) },
      ])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  };
}

/** Stand-in values for a statement's parameters (any value does): EXPLAIN QUERY PLAN needs them bound. */
function sampleParams(sql: string): (string | number)[] {
  const numbered = new Set([...sql.matchAll(/\?(\d+)/g)].map((m) => m[1]));
  return Array.from({ length: numbered.size || [...sql.matchAll(/\?/g)].length }, () => 'x');
}
