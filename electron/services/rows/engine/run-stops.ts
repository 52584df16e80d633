import type { JobSubmission, JobView, SubmitResult } from '../../../common/bridge/jobs';
import type { SubmitOptions } from '../../jobs/engine-types';
import type { RunPause, RunPauseReason } from '../../../common/jobs/run-pause';
import type { Logger } from '../../host/types';
import { refusedForBalance, type RowBase, type RowJobs, type RowKind, type RunBase } from './row-kind';
import type { RowTask } from './row-queue';
import type { RunMemory } from './run-memory';
import { RunSpending } from '../money/run-spending';

export interface RunStopsDeps {
  jobs: RowJobs;
  memory: RunMemory;
  kindOf(kind: string): RowKind<RowBase, RunBase<RowBase>>;
  /** The connection each running run sends to (`kind/id` → connection), as the engine keeps it. */
  connections: ReadonlyMap<string, string>;
  log?: Logger;
  /** The engine stopped (quitting): nothing more leaves. */
  stopped?: () => boolean;
}

/**
 * Where the account stops a run: a create refused for want of credits (1006, 1104), or a row the spending
 * gate's row hold refused (the balance, the day's limit: every run on its connection; the run's cap: that
 * run). Each is a pause with its reason and what is left, never a failed row: the row keeps its step and
 * sends it again on resume (the service made nothing). A row's creates go on the strength of its hold
 * (`rowHeld`): nothing here checks money per create.
 */
export class RunStops {
  readonly spending: RunSpending;
  /** Runs that may go on only while something outside says so (a worker's row: its queued run still running). */
  readonly guards = new Map<string, () => Promise<boolean>>();
  /** Each run's creates on their way whose fate is not known yet: left, or held back and put back (by `kind/id`). */
  readonly undecided = new Map<string, Set<Promise<void>>>();

  constructor(private readonly deps: RunStopsDeps) {
    this.spending = new RunSpending(deps.jobs, {
      list: (key) => this.ownJobs(...splitKey(key)),
      has: (key, job) => {
        const [kind, id] = splitKey(key);
        return this.deps.kindOf(kind).rowOf(job)?.runId === id;
      },
      running: (key) => this.deps.memory.inMemory(...splitKey(key))?.state === 'running',
    });
  }

  /**
   * Sends one create of a held row; null when it was refused for credits, or a duplicate. `submit` is the engine's way of sending it once (its intent first, where shared).
   */
  async send(
    task: RowTask,
    submission: JobSubmission,
    submit: (
      submission: JobSubmission,
      options: SubmitOptions,
    ) => Promise<SubmitResult | { status: 'outcome-unknown' }> = (s, options) => this.deps.jobs.submit(s, options),
  ): Promise<JobView | null> {
    const key = `${task.kind}/${task.runId}`;
    const fates = this.undecided.get(key) ?? new Set<Promise<void>>();
    this.undecided.set(key, fates);
    let known = (): void => undefined;
    const fate = new Promise<void>((resolve) => (known = resolve));
    const decide = () => [fates.delete(fate), known()];
    fates.add(fate);
    // Asked as the request leaves: going, its fate is known; held back, it is once the row is put back.
    const stillGoes = () => (this.stillRunning(task) ? (decide(), true) : false);
    try {
      return await this.sendWithin(task, submission, (s) => submit(s, { stillGoes, rowHeld: true }));
    } finally {
      decide();
    }
  }

  /** Settles once every create of the run on its way has left, or been held back and its row put back. */
  async decided(kind: string, id: string): Promise<void> {
    const fates = this.undecided.get(`${kind}/${id}`);
    while (fates && fates.size > 0) await Promise.all([...fates]);
  }

  private async sendWithin(
    task: RowTask,
    submission: JobSubmission,
    submit: (submission: JobSubmission) => Promise<SubmitResult | { status: 'outcome-unknown' }>,
  ): Promise<JobView | null> {
    const result = await submit(submission);
    if (result.status !== 'submitted') return null;
    if (refusedForBalance(result.job)) {
      await this.pauseConnection(task, 'balance', result.job.error?.explanation ?? 'The account is out of credits.');
      return null;
    }
    return result.job;
  }

  /**
   * At a create's turn, whether the run still sends it: a cancelled run cancels the row; a row started
   * and paused before its first create left has sent nothing and waits with the rows not started; a run
   * paused, by its user or by the account (balance, day's limit, cap), sends no paid request from that
   * moment until it is resumed, and the row keeps its step (what is at the service still finishes).
   */
  async mayCreate(
    task: RowTask,
    at: { first: boolean; untouched?: () => boolean },
    set: (change: (row: RowBase) => RowBase) => Promise<void>,
  ): Promise<boolean> {
    const now = await this.deps.memory.require(task.kind, task.runId);
    if (now.state === 'cancelled') {
      await set((r) => ({
        ...r,
        state: 'cancelled',
        problems: [`the ${task.kind} was cancelled before this row's next step was sent`],
      }));
      return false;
    }
    const guard = this.guards.get(`${task.kind}/${task.runId}`);
    // Paused where it was started (a queued run's studio): this row stops here, as if paused itself.
    if (now.state === 'running' && guard && !(await guard().catch(() => false)))
      await this.deps.memory.update(task.kind, task.runId, (r) => ({ ...r, state: 'paused' }));
    const going = this.deps.memory.inMemory(task.kind, task.runId)?.state ?? now.state;
    if (going !== 'running' && (at.first || at.untouched?.())) {
      await set((r) => ({ ...r, state: 'pending' }));
      return false;
    }
    return going === 'running';
  }

  /**
   * Whether the run is running now, without awaiting: asked as a create leaves, after every await of its
   * way (a pause changes the run in memory before its first await, so one that landed since holds it back).
   */
  stillRunning(task: Pick<RowTask, 'kind' | 'runId'>): boolean {
    return !this.deps.stopped?.() && this.deps.memory.inMemory(task.kind, task.runId)?.state === 'running';
  }

  /** A run stops for `reason`: the cap is the run's own; the account's reasons stop every run on its connection. */
  async pause(task: Pick<RowTask, 'kind' | 'runId'>, reason: RunPauseReason, message: string): Promise<void> {
    if (reason === 'cap') return this.pauseRun(task.kind, task.runId, reason, message);
    return this.pauseConnection(task, reason, message);
  }

  /** The account stopped a create: every running run on its connection stops creating, for this reason. */
  async pauseConnection(task: Pick<RowTask, 'kind' | 'runId'>, reason: RunPauseReason, message: string): Promise<void> {
    const own = `${task.kind}/${task.runId}`;
    const connection = this.deps.connections.get(own);
    const keys = [...this.deps.connections].filter(([key, c]) => key !== own && c === connection).map(([key]) => key);
    // All of them in memory at once (each pauseRun changes its run before it awaits), then written: no
    // run on the connection may create in the time another's record takes to reach the disk.
    await Promise.all([own, ...keys].map((key) => this.pauseRun(...splitKey(key), reason, message)));
  }

  /** The run's jobs in the ledger (every take). */
  private ownJobs(kind: string, id: string): JobView[] {
    const k = this.deps.kindOf(kind);
    return this.deps.jobs.list((job) => k.rowOf(job)?.runId === id, { runId: id });
  }

  /** What the run's jobs have cost so far (its cap counts them). */
  spent(kind: string, id: string): number {
    return this.spending.spent(`${kind}/${id}`);
  }

  /** Pauses the run in memory before it returns its first promise (no await before the change). */
  async pauseRun(kind: string, id: string, reason: RunPauseReason, message: string): Promise<void> {
    const run = this.deps.memory.inMemory(kind, id);
    if (!run || run.state !== 'running') return;
    this.deps.log?.warn('a run stops creating', { kind, run: id, reason, message });
    const k = this.deps.kindOf(kind);
    const left = this.spending.left(run, `${kind}/${id}`, (job) => k.rowOf(job)?.row ?? null);
    const pause: RunPause = { reason, at: Date.now(), message, ...left };
    await this.deps.memory.update(kind, id, (r) => ({ ...r, state: 'paused', pause }));
  }
}

/** A run's `kind/runId` key, split at its first slash (a kind's name holds none). */
function splitKey(key: string): [string, string] {
  const at = key.indexOf('/');
  return [key.slice(0, at), key.slice(at + 1)];
}
