import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Code } from '@common/api/error-codes';
import type { JobRecord, JobSubmission, JobView, SubmitResult } from '@common/bridge/jobs';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { SpendingPolicy } from '@common/jobs/cost-model';
import { CampaignRows } from '../../../electron/services/campaign/campaign-rows';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { SpendingGate } from '../../../electron/services/jobs/spending-gate';
import type { SubmitOptions } from '../../../electron/services/jobs/engine-types';
import { RowEngine, type RowEngineDeps } from '../../../electron/services/rows/engine/row-engine';
import { type CreateIntents, RedisCreateIntents } from '../../../electron/services/rows/queue/create-intents';
import { RowFlight } from '../../../electron/services/rows/engine/row-flight';
import { rowUnderWay, type RowStepPrice } from '../../../electron/services/rows/engine/row-kind';
import { BatchRows } from '../../../electron/services/voices/batch-rows';
import { loadTemplate } from '../campaign/template-fixture';
import { rowEngineCases } from './row-engine-cases';
import { advanceUntil } from './windows';
import { runsIn } from './folder-runs';

/** The most rows under way on the connection, whichever run they belong to. */
const IN_FLIGHT = 3;
const JOB_MS = 1_500;
const PRICES: Record<string, number> = { tts: 2, 'avatar-video': 10 };

/**
 * One connection's service as the row engine sees it: each create passes the real spending gate (a held
 * row's create counted on its way at its price), is counted as a request, and ends after
 * JOB_MS with one poll (a request too) and its price charged; the end goes to the engine as the reactor
 * would bring it.
 */
class OneConnection {
  readonly records: JobRecord[] = [];
  readonly requests: number[] = [];
  rows!: RowEngine;
  readonly gate: SpendingGate;

  constructor(limit: number | null) {
    this.gate = new SpendingGate({
      clock: { now: () => Date.now() },
      activeConnection: async () => ({ id: 'c1', name: 'Sandbox' }),
      records: () => this.records,
      estimator: async (kind) => ({ credits: PRICES[kind] ?? 1, basis: 'test price' }),
      spending: () => SpendingPolicy.parse({ dailyLimits: limit === null ? {} : { c1: limit } }),
    });
  }

  list(): JobView[] {
    return this.records as unknown as JobView[];
  }

  /** The gate the row engine holds rows' prices on (the job engine's, as in the studio). */
  get spending(): SpendingGate {
    return this.gate;
  }

  /** Each step at its price, as the job engine says it. */
  async expectedCredits(step: RowStepPrice): Promise<number> {
    return PRICES[step.kind] ?? 1;
  }

  /** Creates the account pays for before it runs out of credits; null: it never does. */
  creditsFor: number | null = null;
  /** When each create refused for want of credits came. */
  readonly refusals: number[] = [];

  async submit(submission: JobSubmission, options: SubmitOptions = {}): Promise<SubmitResult> {
    const pass = await this.gate.admit(submission, { id: 'c1', name: 'Sandbox' }, options.rowHeld);
    this.requests.push(Date.now());
    if (this.creditsFor !== null && this.records.length >= this.creditsFor) {
      pass.ticket.release();
      this.refusals.push(Date.now());
      const error = { code: Code.InsufficientCredit, explanation: 'Out of credits.' };
      return { status: 'submitted', job: { phase: 'failed', remoteId: null, error } as unknown as JobView };
    }
    const price = PRICES[submission.kind] ?? 1;
    const record = {
      id: `job-${this.records.length + 1}`,
      kind: submission.kind,
      purpose: submission.purpose,
      connectionId: 'c1',
      request: submission.body,
      createdAt: Date.now(),
      finishedAt: null,
      phase: 'queued',
      remoteId: `r${this.records.length + 1}`,
      resultUrl: null,
      expiresAt: null,
      costEstimate: { credits: price, basis: 'test price' },
      chargedCredits: null,
      error: null,
      polls: 0,
    } as unknown as JobRecord;
    this.records.push(record);
    pass.ticket.release();
    setTimeout(() => {
      this.requests.push(Date.now());
      Object.assign(record, {
        phase: 'completed',
        polls: 1,
        finishedAt: Date.now(),
        chargedCredits: price,
        resultUrl: `https://cdn.example/${record.id}`,
      });
      void this.rows.jobEnded(record);
    }, JOB_MS);
    return { status: 'submitted', job: record as unknown as JobView };
  }

  spent(): number {
    return this.records.reduce((sum, r) => sum + (PRICES[r.kind] ?? 1), 0);
  }
}

function studio(shared: Pick<RowEngineDeps, 'intents'>, limit: number | null, campaignRows: number, batchRows: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-rows-together-'));
  const service = new OneConnection(limit);
  // Both runs on one engine and one connection: one bound of rows under way between them.
  const rows = new RowEngine({
    jobs: service,
    ...shared,
    connection: async () => 'c1',
    flight: new RowFlight({ floor: IN_FLIGHT, minutes: 0 }),
  });
  service.rows = rows;
  const campaigns = new CampaignRows({
    rows,
    runs: runsIn(dataDir),
    prepare: async (body) => body,
    saveRow: async () => undefined,
  });
  const batches = new BatchRows({ rows, runs: runsIn(dataDir), subscribe: () => () => undefined });
  const template = loadTemplate();
  const lines = [
    ['First name', 'company', 'voice', 'avatar', 'logo'],
    ...Array.from({ length: campaignRows }, (_, i) => [
      `P${i + 1}`,
      'Co',
      'sandbox_ava',
      'SandboxBen',
      'https://cdn.example/logo.png',
    ]),
  ];
  const filled = fillRows(template, campaignTable(lines, columnVariables(template)).rows, {
    voice: null,
    avatar: null,
  });
  const campaign = newCampaignRecord({
    id: 'c',
    label: 'c.csv',
    template,
    check: { rows: checkRows(filled, new Map()), voiceIds: {} },
    sheetFolder: null,
    outDir: join(dataDir, 'out'),
    concurrency: 2,
  });
  const batch = {
    id: 'b',
    label: 'b.csv',
    rows: Array.from({ length: batchRows }, (_, row) => ({
      row,
      text: `Line ${row + 1}.`,
      voiceId: 'sandbox_ava',
      rate: '50%',
      name: null,
    })),
    invalid: [],
    concurrency: 2,
    template: '{row}',
  };
  return { service, rows, campaigns, batches, campaign, batch };
}

beforeEach(() => {
  // setImmediate stays real: the runs' journals are real files, written between the steps of fake time.
  vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
/**
 * Intent writes that go to a real Redis take real time, during which fake time must stand still: a write
 * slow in real time while the test moves fake time on would let jobs end before their rows were told,
 * and the verdict would follow how busy the machine is.
 */
const writing = new Set<Promise<unknown>>();
function heldStill<T extends CreateIntents>(intents: T): T {
  return new Proxy(intents, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const call = Promise.resolve(value.apply(target, args));
        writing.add(call);
        void call.finally(() => writing.delete(call)).catch(() => undefined);
        return call;
      };
    },
  });
}
const advance = async (ms: number) => {
  while (writing.size > 0) await Promise.allSettled([...writing]);
  return vi.advanceTimersByTimeAsync(ms);
};
afterEach(() => {
  vi.useRealTimers();
});

const cases = rowEngineCases().map((c) => ({
  ...c,
  deps: () => {
    const made = c.deps();
    return { ...made, intents: made.intents instanceof RedisCreateIntents ? heldStill(made.intents) : made.intents };
  },
}));

describe.each(cases)('a batch and a campaign on one connection at once ($name)', ({ deps }) => {
  it('keep one bound of rows under way between them, and both finish', async () => {
    const { service, campaigns, batches, campaign, batch, rows } = studio(deps(), null, 6, 12);
    await campaigns.create(campaign);
    await batches.create(batch);
    let ended = 0;
    const campaignDone = campaigns.run('c').finally(() => (ended += 1));
    const batchDone = batches.run('b').finally(() => (ended += 1));
    const underWay = new Set<number>();
    const count = async (kind: string, id: string) => (await rows.get(kind, id))?.rows.filter(rowUnderWay).length ?? 0;
    await advanceUntil(
      async (ms) => {
        await advance(ms);
        underWay.add((await count('campaign', 'c')) + (await count('batch', 'b')));
      },
      () => ended === 2,
    );
    expect((await campaignDone).rows.map((r) => r.state)).toEqual(Array(6).fill('done'));
    expect((await batchDone).counts.completed).toBe(12);
    // 6 rows × 3 jobs and 12 rows × 1 job, each a create and a poll.
    expect(service.requests).toHaveLength(2 * (18 + 12));
    expect(Math.max(...underWay)).toBe(IN_FLIGHT);
  });

  it("are both stopped by the day's limit, at most one job's price over it", async () => {
    const limit = 40;
    const { service, campaigns, batches, campaign, batch, rows } = studio(deps(), limit, 6, 30);
    await campaigns.create(campaign);
    await batches.create(batch);
    void campaigns.run('c');
    void batches.run('b');
    const stopped = async () =>
      (await rows.get('campaign', 'c'))?.state === 'paused' && (await rows.get('batch', 'b'))?.state === 'paused';
    await advanceUntil(advance, stopped);
    // Paused for the day's limit, both of them, with nothing failed for it.
    for (const kind of ['campaign', 'batch']) {
      const run = await rows.get(kind, kind === 'campaign' ? 'c' : 'b');
      expect(run?.pause?.reason).toBe('daily-limit');
      expect(run?.rows.filter((r) => r.state === 'failed')).toEqual([]);
    }
    // Every job sent has ended.
    await advanceUntil(advance, () => service.records.every((r) => r.phase === 'completed'));
    expect(service.spent()).toBeLessThanOrEqual(limit + Math.max(...Object.values(PRICES)));
    // Nothing more leaves once both have stopped.
    const sent = service.records.length;
    await advance(60_000);
    expect(service.records).toHaveLength(sent);
  });

  it('send nothing once the account stopped them, not even a create that waited behind others', async () => {
    const { service, campaigns, batches, campaign, batch, rows } = studio(deps(), null, 3, 30);
    service.creditsFor = 8;
    await campaigns.create(campaign);
    await batches.create(batch);
    void campaigns.run('c');
    void batches.run('b');
    const paused = async (kind: string, id: string) => (await rows.get(kind, id))?.pause?.reason === 'balance';
    await advanceUntil(advance, async () => (await paused('campaign', 'c')) && (await paused('batch', 'b')));
    // The refusal that stopped them, and any create already inside its request at that instant; then nothing.
    await advance(60_000);
    expect(service.records).toHaveLength(8);
    expect(service.refusals.filter((at) => at !== service.refusals[0])).toEqual([]);
  });
});
