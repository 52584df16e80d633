import { describe, expect, it } from 'vitest';
import { describeRunBalance, runFigures, type RunBalance } from '../../../electron/common/jobs/run-balance';
import { RunBalanceWatch } from '../../../electron/services/jobs/run-balance';
import type { Timers } from '../../../electron/services/jobs/scheduler';
import { until } from '../../wait';

/** Timers a test fires by hand: the one pending callback and its delay. */
class HandTimers implements Timers {
  pending: { callback: () => void; ms: number } | null = null;
  setTimeout(callback: () => void, ms: number): unknown {
    this.pending = { callback, ms };
    return this.pending;
  }
  clearTimeout(handle: unknown): void {
    if (handle === this.pending) this.pending = null;
  }
  fire(): void {
    const pending = this.pending;
    this.pending = null;
    pending?.callback();
  }
}

function watch(read: () => number | null) {
  let now = 1_000_000;
  const saved: RunBalance[] = [];
  const timers = new HandTimers();
  const balances = new RunBalanceWatch({
    read: async (connectionId) => {
      const credits = read();
      return credits === null ? null : { connectionId: connectionId ?? 'c1', credits };
    },
    save: async (_id, balance) => {
      saved.push(balance);
    },
    clock: { now: () => now },
    timers,
    everyMs: 300_000,
  });
  return { balances, saved, timers, later: (ms: number) => (now += ms) };
}

const time = (at: number) => `t+${(at - 1_000_000) / 1000}s`;

describe("a run's balance", () => {
  it('is read when the run starts, every few minutes on the clock given, and when it ends', async () => {
    let balance = 1_240;
    const { balances, saved, timers, later } = watch(() => balance);
    await balances.started('b1', undefined);
    expect(saved.at(-1)).toEqual({
      connectionId: 'c1',
      start: 1_240,
      startedAt: 1_000_000,
      latest: 1_240,
      latestAt: 1_000_000,
      endedAt: null,
    });
    expect(timers.pending?.ms).toBe(300_000);

    balance = 640;
    later(300_000);
    timers.fire();
    await until('the reading five minutes in', () => saved.length === 2);
    expect(saved.at(-1)).toMatchObject({ start: 1_240, latest: 640, latestAt: 1_300_000, endedAt: null });
    expect(timers.pending?.ms).toBe(300_000);
    expect(describeRunBalance(saved.at(-1), { credits: 600, unknown: 0 }, time)).toBe(
      "So far (read at t+300s) the balance fell by 600 credits; its jobs' prices add up to 600.",
    );

    balance = 0;
    later(60_000);
    await balances.stopped('b1', true);
    expect(timers.pending).toBeNull();
    const ended = saved.at(-1) as RunBalance;
    expect(ended).toMatchObject({ start: 1_240, latest: 0, endedAt: 1_360_000 });
    expect(describeRunBalance(ended, { credits: 1_200, unknown: 0 })).toBe(
      "The balance fell by 1,240 credits; its jobs' prices add up to 1,200. 40 credits more went to other spending on the account meanwhile (another run, a job by hand, another client).",
    );

    // Rows made again after the end: the run goes on from its first reading.
    await balances.started('b1', ended);
    expect(saved.at(-1)).toMatchObject({ start: 1_240, startedAt: 1_000_000, endedAt: null });
    balances.stop();
    expect(timers.pending).toBeNull();
  });

  it('has no figure when its first reading failed, and a later reading does not stand in for it', async () => {
    let balance: number | null = null;
    const { balances, saved, timers } = watch(() => balance);
    await balances.started('b1', undefined);
    balance = 500;
    timers.fire();
    await balances.stopped('b1', true);
    expect(saved).toEqual([]);
    expect(describeRunBalance(undefined, { credits: 10, unknown: 0 })).toBeNull();
  });

  it('says a rise, no change, and the jobs that have no figure of their own', () => {
    const run = (start: number, latest: number): RunBalance => ({
      connectionId: 'c1',
      start,
      startedAt: 0,
      latest,
      latestAt: 1,
      endedAt: 1,
    });
    expect(describeRunBalance(run(100, 150), { credits: 20, unknown: 1 })).toBe(
      "The balance rose by 50 credits; its jobs' prices add up to 20, and 1 job has no figure of its own. At least 70 credits were added to the account meanwhile (a top-up).",
    );
    expect(describeRunBalance(run(100, 100), { credits: 0, unknown: 3 })).toBe(
      "The balance did not change; its jobs' prices add up to 0, and 3 jobs have no figure of their own.",
    );
  });

  it("adds up its jobs' figures since its first reading, refused creates aside", () => {
    const job = (over: Partial<Parameters<typeof runFigures>[0][number]>) => ({
      chargedCredits: null,
      costEstimate: null,
      phase: 'queued',
      remoteId: 'r',
      createdAt: 10,
      ...over,
    });
    expect(
      runFigures(
        [
          job({ chargedCredits: 30 }),
          job({ costEstimate: { credits: 10 }, phase: 'submitting', remoteId: null }),
          job({ costEstimate: { credits: 99 }, phase: 'failed', remoteId: null }),
          job({}),
          job({ chargedCredits: 500, createdAt: 5 }),
          // Cut off by a stop before the service answered: it may or may not have been made and charged.
          job({ costEstimate: { credits: 7 }, phase: 'outcome-unknown', remoteId: null }),
        ],
        10,
      ),
    ).toEqual({ credits: 40, unknown: 2, later: 0 });
  });

  it('names a top-up: a fall of 993 beside 3,993 of prices says 3,000 credits were added', () => {
    const run: RunBalance = { connectionId: 'c1', start: 1_000, startedAt: 0, latest: 7, latestAt: 9, endedAt: 9 };
    expect(describeRunBalance(run, { credits: 3_993, unknown: 0 })).toBe(
      "The balance fell by 993 credits; its jobs' prices add up to 3,993. 3,000 credits were added to the account meanwhile (a top-up).",
    );
    // Within the slack of estimates and rounding, nothing is named.
    expect(describeRunBalance(run, { credits: 1_000, unknown: 0 })).toBe(
      "The balance fell by 993 credits; its jobs' prices add up to 1,000.",
    );
  });

  it('holds against a running fall only the jobs sent before its reading, and says the later ones apart', () => {
    const job = (createdAt: number, chargedCredits: number) => ({
      chargedCredits,
      costEstimate: null,
      phase: 'completed',
      remoteId: 'r',
      createdAt,
    });
    const run: RunBalance = { connectionId: 'c1', start: 500, startedAt: 10, latest: 500, latestAt: 20, endedAt: null };
    const figures = runFigures([job(30, 11), job(40, 11)], run.startedAt, run.latestAt);
    expect(figures).toEqual({ credits: 0, unknown: 0, later: 22 });
    // Before: "did not change; its jobs' prices add up to 22" while the sidebar's balance fell.
    expect(describeRunBalance(run, figures, () => '10:32')).toBe(
      "So far (read at 10:32) the balance did not change; its jobs' prices up to that reading add up to 0. Jobs sent since (about 22 credits) are not in that reading yet.",
    );
  });
});
