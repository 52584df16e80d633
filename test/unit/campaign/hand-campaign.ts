// The campaign rows' engine driven by hand, for the tests of its steps and of the money it spends: a job
// engine answered by hand behind the real spending gate, and a campaign of some rows to run on it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobSubmission, JobView, SubmitResult } from '@common/bridge/jobs';
import { checkRows, fillRows } from '@common/campaign/row-check';
import { campaignTable } from '@common/campaign/rows';
import { columnVariables } from '@common/campaign/variables';
import { Code } from '@common/api/error-codes';
import { CampaignRows } from '../../../electron/services/campaign/campaign-rows';
import { RowEngine, type RowEngineDeps } from '../../../electron/services/rows/engine/row-engine';
import type { RowJobs } from '../../../electron/services/rows/engine/row-kind';
import type { Budget } from '../../../electron/services/jobs/budget';
import { SpendingGate } from '../../../electron/services/jobs/spending-gate';
import type { SubmitOptions } from '../../../electron/services/jobs/engine-types';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { loadTemplate } from './template-fixture';
import { runsIn } from '../rows/folder-runs';

export const C1 = { id: 'c1', name: 'c1' };

/**
 * The job engine as the runner sees it, answered by hand: each create is a queued job until the test
 * ends it; `refuse` makes the next creates answer "too frequent" before anything is made. Each create
 * passes the real spending gate first (on `budget`, the one the queue's workers share).
 */
export class HandEngine {
  jobs: JobView[] = [];
  /** What a create is expected to cost (null: nobody can say), for the gate and the row budget alike. */
  expectedCredits?: () => Promise<number | null>;
  private readonly gate: SpendingGate;

  constructor(budget?: Budget) {
    this.gate = new SpendingGate({
      clock: { now: () => Date.now() },
      activeConnection: async () => C1,
      records: () => [],
      estimator: async () => {
        const credits = (await this.expectedCredits?.()) ?? null;
        return credits === null ? null : { credits, basis: 'by hand' };
      },
      budget,
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
    const pass = await this.gate.admit(submission, C1, options.rowHeld);
    try {
      return this.made(submission);
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

export function setup(
  { budget, ...shared }: Pick<RowEngineDeps, 'intents'> & { budget?: Budget },
  rows: number,
  concurrency = 2,
  balance?: (engine: HandEngine) => number,
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-campaign-hand-'));
  const engine: HandEngine & Partial<Pick<RowJobs, 'balanceNow'>> = new HandEngine(budget);
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
