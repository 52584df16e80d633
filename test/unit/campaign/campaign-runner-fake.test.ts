import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobSubmission, JobView, SubmitResult } from '@common/bridge/jobs';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { Code } from '@common/api/error-codes';
import { CampaignRows, campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { campaignBalanceNote } from '../../../electron/services/campaign/campaign-manifest';
import { RowEngine, type RowEngineDeps } from '../../../electron/services/rows/engine/row-engine';
import type { RowJobs } from '../../../electron/services/rows/engine/row-kind';
import {
  InProcessCreateIntents,
  OUTCOME_UNKNOWN,
  type CreateIntents,
} from '../../../electron/services/rows/queue/create-intents';
import { rowQueueCases } from '../rows/row-queues';
import { InProcessDaySpending, type DaySpending } from '../../../electron/services/jobs/day-spending';
import { RedisDaySpending } from '../../../electron/services/rows/money/day-spending';
import { InProcessRowQueue } from '../../../electron/services/rows/engine/row-queue';
import { redisClients, redisPerFile } from '../../redis-per-file';
import { SpendingGate } from '../../../electron/services/jobs/spending-gate';
import type { SubmitOptions } from '../../../electron/services/jobs/engine-types';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { loadTemplate } from './template-fixture';
import { runsIn } from '../rows/folder-runs';

const C1 = { id: 'c1', name: 'c1' };

/**
 * The job engine as the runner sees it, answered by hand: each create is a queued job until the test
 * ends it; `refuse` makes the next creates answer "too frequent" before anything is made. Each create
 * passes the real spending gate first (on `days`, the day's spending of the queue's workers).
 */
class HandEngine {
  jobs: JobView[] = [];
  /** What a create is expected to cost (null: nobody can say), for the gate and the row budget alike. */
  expectedCredits?: () => Promise<number | null>;
  private readonly gate: SpendingGate;

  constructor(days?: DaySpending) {
    this.gate = new SpendingGate({
      clock: { now: () => Date.now() },
      activeConnection: async () => C1,
      records: () => [],
      estimator: async () => {
        const credits = (await this.expectedCredits?.()) ?? null;
        return credits === null ? null : { credits, basis: 'by hand' };
      },
      days,
    });
  }
  refuse = 0;
  /** The most rows at the service at once after the first refusal. */
  mostAfterRefusal = 0;
  private refusedOnce = false;
  onEnd: (job: JobView) => void = () => undefined;

  list(): JobView[] {
    return this.jobs;
  }

  async submit(submission: JobSubmission, options: SubmitOptions = {}): Promise<SubmitResult> {
    const pass = await this.gate.admit(submission, C1, options.dayLimit);
    try {
      const result = this.made(submission);
      await pass.settle(result.job);
      return result;
    } finally {
      pass.ticket.release();
    }
  }

  private made(submission: JobSubmission): SubmitResult & { status: 'submitted' } {
    const refused = this.refuse > 0;
    if (refused) this.refuse -= 1;
    if (refused) this.refusedOnce = true;
    else if (this.refusedOnce) {
      const rows = new Set(
        this.jobs
          .filter((j) => j.phase === 'queued' && j.purpose.type === 'campaign-row')
          .map((j) => (j.purpose.type === 'campaign-row' ? j.purpose.row : -1)),
      );
      if (submission.purpose?.type === 'campaign-row') rows.add(submission.purpose.row);
      this.mostAfterRefusal = Math.max(this.mostAfterRefusal, rows.size);
    }
    const job = {
      id: `job-${this.jobs.length + 1}`,
      kind: submission.kind,
      purpose: submission.purpose,
      request: submission.body,
      createdAt: this.jobs.length,
      phase: refused ? 'failed' : 'queued',
      remoteId: refused ? null : `r${this.jobs.length + 1}`,
      resultUrl: null,
      expiresAt: null,
      chargedCredits: null,
      error: refused
        ? { code: Code.TooFrequent, endpoint: null, message: 'too frequent', explanation: 'too frequent' }
        : null,
    } as unknown as JobView;
    this.jobs.push(job);
    return { status: 'submitted', job };
  }

  /** Ends every job at the service: completed, or failed for the rows named. */
  endAll(failRows: readonly number[] = []): void {
    for (const job of this.jobs) {
      if (job.phase !== 'queued') continue;
      const row = job.purpose.type === 'campaign-row' ? job.purpose.row : -1;
      Object.assign(
        job,
        failRows.includes(row)
          ? {
              phase: 'failed',
              error: { code: 1015, endpoint: null, message: 'x', explanation: 'the service could not make it' },
            }
          : {
              phase: 'completed',
              resultUrl: `https://cdn.example/${job.id}`,
              expiresAt: Date.now() + 7 * 86_400_000,
              chargedCredits: 2,
            },
      );
      this.onEnd(job);
    }
  }

  created(): JobView[] {
    return this.jobs.filter((j) => j.remoteId !== null);
  }
}

function setup(
  { daySpending, ...shared }: Pick<RowEngineDeps, 'queue' | 'intents'> & { daySpending?: DaySpending },
  rows: number,
  concurrency = 2,
  balance?: (engine: HandEngine) => number,
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-campaign-hand-'));
  const engine: HandEngine & Partial<Pick<RowJobs, 'balanceNow'>> = new HandEngine(daySpending);
  if (balance) engine.balanceNow = async () => ({ connectionId: 'c1', credits: balance(engine) });
  const saved: string[] = [];
  const rowEngine = new RowEngine({
    jobs: engine,
    ...shared,
    // The hand engine's jobs are made at times 0, 1, 2...: the readings' clock starts there too.
    balanceReadings: { clock: { now: () => 0 } },
  });
  const runner = new CampaignRows({
    rows: rowEngine,
    runs: runsIn(dataDir),
    prepare: async (body) => body,
    saveRow: async (record, row) => {
      saved.push(join(record.outDir, row.fileName));
    },
  });
  engine.onEnd = (job) => void runner.jobEnded(job);
  const settle = () => runner.idle();
  const template = loadTemplate();
  const lines = [
    ['First name', 'company', 'voice', 'avatar', 'logo'],
    ...Array.from({ length: rows }, (_, i) => [
      `P${i + 1}`,
      'Co',
      'sandbox_ava',
      'SandboxBen',
      'https://cdn.example/logo.png',
    ]),
  ];
  const table = campaignTable(lines, columnVariables(template));
  const filled = fillRows(template, table.rows, { voice: null, avatar: null });
  const check = { rows: checkRows(filled, new Map()), voiceIds: {} };
  const record = newCampaignRecord({
    id: 'hand',
    label: 'hand.csv',
    template,
    check,
    sheetFolder: null,
    outDir: join(dataDir, 'out'),
    concurrency,
  });
  return { dataDir, engine, runner, saved, record, settle };
}

describe.each(rowQueueCases())('campaign rows on the row engine, step by step ($name)', ({ deps }) => {
  it('starts rows while no create is on its way (no fixed count), each row voiceovers first, then its video', async () => {
    const { engine, runner, record, settle } = setup(deps(), 5, 2);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    // The record's concurrency (2) no longer caps anything: creates leave at once here, so every row starts.
    expect(new Set(engine.created().map((j) => (j.purpose.type === 'campaign-row' ? j.purpose.row : -1)))).toEqual(
      new Set([0, 1, 2, 3, 4]),
    );
    expect(engine.created().map((j) => j.kind)).toEqual(Array(5).fill('tts'));
    engine.endAll();
    await settle();
    expect(
      engine
        .created()
        .filter((j) => j.phase === 'queued')
        .map((j) => j.kind),
    ).toEqual(Array(5).fill('tts'));
    for (let i = 0; i < 12; i += 1) {
      engine.endAll();
      await settle();
    }
    const done = await run;
    expect(done.rows.map((r) => r.state)).toEqual(Array(5).fill('done'));
    expect(engine.created()).toHaveLength(15);
  });

  it("reads the balance when it starts and ends, and shows its fall beside its jobs' figures", async () => {
    // Each job the service accepted took 2 credits when it was made.
    const { engine, runner, record, settle } = setup(deps(), 2, 2, (hand) => 1_000 - 2 * hand.created().length);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    expect((await runner.get('hand'))?.balance).toMatchObject({ start: 1_000, latest: 1_000, endedAt: null });
    for (let i = 0; i < 6; i += 1) {
      engine.endAll();
      await settle();
    }
    const done = await run;
    expect(done.state).toBe('finished');
    expect(done.balance).toMatchObject({ start: 1_000, latest: 988, endedAt: 0 });
    expect(campaignBalanceNote(done, engine.jobs)).toBe(
      "The balance fell by 12 credits; its jobs' prices add up to 12.",
    );
  });

  it('sends the step the service refused as too frequent again, once', async () => {
    const { engine, runner, record, settle } = setup(deps(), 3, 3);
    engine.refuse = 2;
    await runner.create(record);
    const run = runner.run('hand');
    for (let i = 0; i < 15; i += 1) {
      await settle();
      engine.endAll();
    }
    const done = await run;
    expect(done.rows.map((r) => r.state)).toEqual(['done', 'done', 'done']);
    expect(engine.jobs.filter((j) => j.remoteId === null)).toHaveLength(2);
    const steps = engine
      .created()
      .map((j) =>
        j.purpose.type === 'campaign-row' ? `${j.purpose.row}:${j.purpose.step}:${j.purpose.sceneId ?? ''}` : '',
      );
    expect(new Set(steps).size).toBe(steps.length);
    expect(steps).toHaveLength(9);
  });

  it('pauses (no paid request after it: rows under way keep their steps), resumes, and cancels before the next paid step', async () => {
    const { engine, runner, record, settle } = setup(deps(), 4, 1);
    await runner.create(record);
    await runner.pause('hand');
    const paused = await runner.run('hand');
    expect(paused.rows.map((r) => r.state)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(engine.created()).toHaveLength(0);
    await runner.resume('hand');
    const resumed = runner.run('hand');
    await settle();
    expect(engine.created()).toHaveLength(4);
    // Paused with every row under way: what is at the service ends, and no next paid step leaves.
    await runner.pause('hand');
    expect((await resumed).state).toBe('paused');
    for (let i = 0; i < 4; i += 1) {
      engine.endAll();
      await settle();
    }
    expect(engine.created()).toHaveLength(4);
    expect((await runner.get('hand'))!.rows.map((r) => r.state)).toEqual(Array(4).fill('voiceover'));
    // Resumed: each row goes on from its step, its voiceover not sent again.
    await runner.resume('hand');
    const finished = runner.run('hand');
    for (let i = 0; i < 4; i += 1) {
      await settle();
      engine.endAll();
    }
    expect((await finished).rows.map((r) => r.state)).toEqual(Array(4).fill('done'));
    expect(engine.created()).toHaveLength(12);
  });

  it('cancelled, a row under way stops before its next paid step and rows not started never start', async () => {
    const { engine, runner, record, settle } = setup(deps(), 4, 1);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    expect(engine.created()).toHaveLength(4);
    await runner.cancel('hand');
    for (let i = 0; i < 4; i += 1) {
      engine.endAll();
      await settle();
    }
    const cancelled = await run;
    // Each row's first voiceover was sent: it stops before its second.
    expect(cancelled.rows.map((r) => r.state)).toEqual(Array(4).fill('cancelled'));
    expect(engine.created()).toHaveLength(4);
  });

  it('with 5% of its jobs failing, fails those rows by name, makes every other row, and sends no step twice', async () => {
    const { engine, runner, record, settle } = setup(deps(), 40, 2);
    await runner.create(record);
    const run = runner.run('hand');
    const failing = [7, 23];
    for (let round = 0; round < 8; round += 1) {
      await settle();
      engine.endAll(round === 1 ? failing : []);
    }
    const done = await run;
    expect(done.rows.filter((r) => r.state === 'failed').map((r) => r.row)).toEqual(failing);
    expect(done.rows.filter((r) => r.state === 'done')).toHaveLength(38);
    const steps = engine
      .created()
      .map((j) => (j.purpose.type === 'campaign-row' ? `${j.purpose.row}:${j.purpose.step}:${j.purpose.sceneId}` : ''));
    expect(new Set(steps).size).toBe(steps.length);
  });

  it('fails a row whose create another worker set out to send as of unknown outcome, and never sends it', async () => {
    const shared = deps();
    const { intents } = shared;
    // Another worker wrote the intent of row 2's first create, then died before its job reached any ledger.
    const elsewhere: CreateIntents = {
      claim: async (key) =>
        key.row === 1 && key.take === 0 ? (await intents.claim(key)) && false : intents.claim(key),
      release: (key) => intents.release(key),
      made: (key, remoteId) => intents.made(key, remoteId),
      read: (key) => intents.read(key),
    };
    const { engine, runner, record, settle } = setup({ ...shared, intents: elsewhere }, 3, 3);
    await runner.create(record);
    const run = runner.run('hand');
    for (let i = 0; i < 6; i += 1) {
      await settle();
      engine.endAll();
    }
    const done = await run;
    expect(done.rows.map((r) => r.state)).toEqual(['done', 'failed', 'done']);
    expect(done.rows[1]?.problems).toEqual([OUTCOME_UNKNOWN]);
    expect(engine.jobs.filter((j) => j.purpose.type === 'campaign-row' && j.purpose.row === 1)).toEqual([]);
  });

  it("stops two workers of queued runs together at the day's limit they share, never past it", async () => {
    const daySpending = new InProcessDaySpending();
    await twoWorkersStopAtTheLimit(deps, [daySpending, daySpending], daySpending);
  });

  it('names a failed row with the reason, and a retry sends its next take once; a done row is kept', async () => {
    const { engine, runner, record, saved, dataDir, settle } = setup(deps(), 2, 2);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    engine.endAll([1]);
    for (let i = 0; i < 4; i += 1) {
      await settle();
      engine.endAll();
    }
    const first = await run;
    expect(first.state).toBe('finished');
    expect(first.rows[1]).toMatchObject({
      state: 'failed',
      problems: ['Scene 1 (hello): the voiceover failed (the service could not make it)'],
    });
    expect(saved).toEqual([join(dataDir, 'out', '1 - P1.mp4')]);
    await runner.retryRow('hand', 1);
    const again = runner.run('hand');
    for (let i = 0; i < 4; i += 1) {
      await settle();
      engine.endAll();
    }
    const second = await again;
    expect(second.rows.map((r) => [r.state, r.take])).toEqual([
      ['done', 0],
      ['done', 1],
    ]);
    expect(engine.created().filter((j) => j.purpose.type === 'campaign-row' && j.purpose.row === 0)).toHaveLength(3);
    expect(
      engine.created().filter((j) => j.purpose.type === 'campaign-row' && j.purpose.row === 1 && j.purpose.take === 1),
    ).toHaveLength(3);
    await runner.flush();
    // Read back as a new host would: from the folder's records database, on a connection of its own.
    const onDisk = await campaignRuns(runsIn(dataDir, { readOnly: true })).get('hand');
    expect(onDisk?.rows.map((r) => r.state)).toEqual(['done', 'done']);
    expect(existsSync(join(dataDir, 'campaigns'))).toBe(false);
  });
});

/**
 * Two workers of queued runs, each its own row engine and spending gate, on one day's spending (`days`,
 * one each): each create is expected to cost 2 credits, and the limit of 11 has room for five of them
 * between both. They stop together, paused for the day's limit with no row failed, never past it.
 */
async function twoWorkersStopAtTheLimit(
  deps: () => Pick<RowEngineDeps, 'queue' | 'intents'>,
  days: [DaySpending, DaySpending],
  total: DaySpending,
): Promise<void> {
  const workers = days.map((daySpending) => setup({ ...deps(), daySpending }, 6, 6));
  const runs = await Promise.all(
    workers.map(async ({ engine, runner, record }) => {
      Object.assign(engine, { expectedCredits: async () => 2 });
      await runner.create({ ...record, dayLimit: 11 });
      return runner.run('hand');
    }),
  );
  for (let i = 0; i < 6; i += 1) {
    await Promise.all(workers.map((w) => w.settle()));
    for (const w of workers) w.engine.endAll();
  }
  const ended = await Promise.all(runs);
  expect(workers.reduce((n, w) => n + w.engine.created().length, 0)).toBe(5);
  for (const run of ended) {
    expect(run.state).toBe('paused');
    expect(run.pause?.reason).toBe('daily-limit');
    expect(run.rows.filter((r) => r.state === 'failed')).toEqual([]);
  }
  expect(await total.spent({ connectionId: 'queue', day: new Date().toLocaleDateString('en-CA') })).toBe(10);
}

describe("two workers on one Redis, each with a client of its own (the day's spending of the queue)", () => {
  const { client, prefix } = redisClients(redisPerFile());
  const inProcess = () => ({ queue: new InProcessRowQueue(), intents: new InProcessCreateIntents() });

  it("stop together at the day's limit they share, never past it", async () => {
    const p = prefix();
    const [one, two] = [new RedisDaySpending(client(), p), new RedisDaySpending(client(), p)];
    await twoWorkersStopAtTheLimit(inProcess, [one, two], one);
  });
});
