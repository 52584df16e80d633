// A run's cap is checked by the spending gate before each of its creates, on what the run's jobs cost
// beside its creates on their way. The run's jobs are counted once and kept counted as the engine changes
// them (RunTally), so a check does not look at the run's 300,000 jobs again: checked here against counting
// every job afresh at each step, through creates answered, charged and refused; and once built, a check
// reads no job list at all.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import type { RowJobs } from '../../../electron/services/rows/engine/row-kind';
import { RunSpending, type RunJobs } from '../../../electron/services/rows/money/run-spending';
import { completedJob } from '../downloads/job-fixture';

const KEY = 'batch/b1';

/** A small deterministic generator, so a failure can be played again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** A job of batch `run`, row `row`, take `take`, as the engine records it. */
function job(id: string, run: string, row: number, take: number, patch: Partial<JobRecord>): JobRecord {
  return completedJob(id, '', {
    kind: 'tts',
    purpose: { type: 'batch-row', batchId: run, row, take } as JobRecord['purpose'],
    ...patch,
  });
}

/** An engine's jobs in memory, telling each change (or not, `tells: false`), and how often the run was listed. */
function engine(tells: boolean) {
  const jobs = new Map<string, JobRecord>();
  const listeners = new Set<(job: JobRecord) => void>();
  let listed = 0;
  let running = true;
  const rowJobs = {
    list: () => [],
    submit: () => Promise.reject(new Error('not here')),
    ...(tells
      ? { subscribeRecords: (listener: (job: JobRecord) => void) => (listeners.add(listener), () => undefined) }
      : {}),
  } as unknown as RowJobs;
  const runJobs: RunJobs = {
    list: (key) => {
      listed += 1;
      return [...jobs.values()].filter((j) => runJobs.has(key, j));
    },
    has: (key, j) => key === `batch/${(j.purpose as { batchId?: string }).batchId}`,
    running: () => running,
  };
  const change = (record: JobRecord) => {
    jobs.set(record.id, record);
    for (const listener of listeners) listener(record);
  };
  const stop = () => void (running = false);
  return { spending: new RunSpending(rowJobs, runJobs), change, listed: () => listed, stop };
}

describe("a run's spending, counted as its jobs change", () => {
  it('says what counting every job afresh says, through 2,000 changes', () => {
    const kept = engine(true);
    const fresh = engine(false);
    const next = random(11);
    const records = new Map<string, JobRecord>();
    for (let step = 0; step < 2_000; step += 1) {
      const action = next();
      const row = Math.floor(next() * 40);
      if (action < 0.25 && !records.has(`j${row}`)) {
        // Answered: its job recorded (a refusal has no service id and costs nothing).
        const refused = next() < 0.2;
        const record = job(`j${row}`, 'b1', row, 0, {
          phase: refused ? 'failed' : 'queued',
          remoteId: refused ? null : `r${row}`,
          costEstimate: null,
        });
        records.set(record.id, record);
        for (const e of [kept, fresh]) e.change(record);
      } else if (action < 0.8 && records.size > 0) {
        // A job's record changes: charged, published at a figure, or failed at the service.
        const ids = [...records.keys()];
        const before = records.get(ids[Math.floor(next() * ids.length)]) as JobRecord;
        const turn = next();
        const after: JobRecord =
          turn < 0.4
            ? { ...before, phase: 'completed', chargedCredits: Math.round(next() * 40) / 10 }
            : turn < 0.7
              ? { ...before, costEstimate: { credits: 2.5 } as JobRecord['costEstimate'] }
              : { ...before, phase: 'failed', chargedCredits: 0 };
        records.set(after.id, after);
        for (const e of [kept, fresh]) e.change(after);
      } else {
        // Another run's job changes: none of this run's business.
        const other = job(`o${row}`, 'b2', row, 0, { chargedCredits: 9 });
        for (const e of [kept, fresh]) e.change(other);
      }
      expect(kept.spending.spent(KEY)).toBe(fresh.spending.spent(KEY));
    }
    // Counted once, then kept: the afresh one listed the run at every question.
    expect(kept.listed()).toBe(1);
    expect(fresh.listed()).toBe(2_000);
  });

  it('lets go of a run that stopped at the next change, and counts it again when asked', () => {
    const { spending, change, listed, stop } = engine(true);
    change(job('a', 'b1', 0, 0, { chargedCredits: 4 }));
    expect(spending.spent(KEY)).toBe(4);
    change(job('b', 'b1', 1, 0, { chargedCredits: 2 }));
    expect(spending.spent(KEY)).toBe(6);
    expect(listed()).toBe(1);
    stop();
    change(job('c', 'b2', 0, 0, { chargedCredits: 1 }));
    expect(spending.spent(KEY)).toBe(6);
    expect(listed()).toBe(2);
  });
});
