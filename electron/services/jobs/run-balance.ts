import type { RunBalance } from '../../common/jobs/run-balance';
import type { Clock } from '../client/clock';
import { realTimers, type Timers } from './scheduler';

/** A connection's balance now (default: the one new jobs go to); null where it cannot be read. */
export type BalanceReader = (connectionId?: string) => Promise<{ connectionId: string; credits: number } | null>;

export interface RunBalanceDeps {
  read: BalanceReader;
  /** Writes a run's readings down (in its record), so they outlive a restart. */
  save(runId: string, balance: RunBalance): Promise<void>;
  clock?: Clock;
  timers?: Timers;
  /** How often a running run reads the balance. Default 5 minutes. */
  everyMs?: number;
}

/** What the runners take to read their balance: the clock and timers tests replace, and how often. */
export type RunBalanceOptions = Pick<RunBalanceDeps, 'clock' | 'timers' | 'everyMs'>;

interface Watching {
  balance: RunBalance | null;
  timer: unknown;
  /** Readings and their writes one after another, so the last one read is the last one written. */
  chain: Promise<void>;
}

/**
 * Reads the balance of runs (batches, campaigns) whose jobs go out side by side: when a run starts
 * sending (unless it has a first reading from before a pause or a restart), every few minutes while it
 * sends, and when it pauses or ends. A reading that fails is skipped: the run goes on without it.
 */
export class RunBalanceWatch {
  private readonly runs = new Map<string, Watching>();
  private readonly clock: Clock;
  private readonly timers: Timers;

  constructor(private readonly deps: RunBalanceDeps) {
    this.clock = deps.clock ?? { now: () => Date.now() };
    this.timers = deps.timers ?? realTimers;
  }

  /** The run sends now: its first reading (awaited, before its first create), then one every few minutes. */
  started(runId: string, earlier: RunBalance | null | undefined): Promise<void> {
    if (this.runs.has(runId)) return (this.runs.get(runId) as Watching).chain;
    const watching: Watching = { balance: earlier ?? null, timer: null, chain: Promise.resolve() };
    this.runs.set(runId, watching);
    // A run sending again after it ended (rows made again) goes on from its first reading.
    if (earlier) watching.balance = { ...earlier, endedAt: null };
    return this.reading(runId, watching, false, earlier ? 'latest' : 'start').then(() => this.schedule(runId));
  }

  /** The run paused or ended: one more reading; `ended` marks the run as finished. */
  stopped(runId: string, ended: boolean): Promise<void> {
    const watching = this.runs.get(runId);
    if (!watching) return Promise.resolve();
    this.runs.delete(runId);
    this.timers.clearTimeout(watching.timer);
    return this.reading(runId, watching, ended, 'latest');
  }

  /** Stops every timer without reading (the host is quitting). */
  stop(): void {
    for (const watching of this.runs.values()) this.timers.clearTimeout(watching.timer);
    this.runs.clear();
  }

  private schedule(runId: string): void {
    const watching = this.runs.get(runId);
    if (!watching) return;
    watching.timer = this.timers.setTimeout(
      () => {
        if (this.runs.get(runId) !== watching) return;
        void this.reading(runId, watching, false, 'latest').then(() => this.schedule(runId));
      },
      this.deps.everyMs ?? 5 * 60_000,
    );
  }

  private reading(runId: string, watching: Watching, ended: boolean, which: 'start' | 'latest'): Promise<void> {
    watching.chain = watching.chain.then(async () => {
      // Without its first reading a run has nothing to hold a later one against.
      if (which === 'latest' && watching.balance === null) return;
      const read = await this.deps
        .read(which === 'start' ? undefined : watching.balance?.connectionId)
        .catch(() => null);
      const at = this.clock.now();
      const before = watching.balance;
      if (read === null || (before && read.connectionId !== before.connectionId)) {
        if (ended && before) await this.write(runId, watching, { ...before, endedAt: at });
        return;
      }
      await this.write(runId, watching, {
        connectionId: read.connectionId,
        start: before?.start ?? read.credits,
        startedAt: before?.startedAt ?? at,
        latest: read.credits,
        latestAt: at,
        endedAt: ended ? at : null,
      });
    });
    return watching.chain;
  }

  private async write(runId: string, watching: Watching, balance: RunBalance): Promise<void> {
    watching.balance = balance;
    await this.deps.save(runId, balance).catch(() => undefined);
  }
}
