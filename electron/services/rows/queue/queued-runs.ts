import { Redis } from 'ioredis';
import type { RunPauseReason } from '../../../common/jobs/run-pause';
import type { CredentialVault, Logger } from '../../host/types';
import { RowTakes, type TakeAt } from './row-takes';
import { withinMs } from '../engine/within';
import { queueVaultId, redisTarget } from './redis-target';
import type { QueuedRows, RowBase, RowJobs, RowKind, RowStepContext, RunBase } from '../engine/row-kind';
import { rowUnderWay } from '../engine/row-kind';
import { earlierTake } from './earlier-take';
import type { InProcessRowQueue, RowTask } from '../engine/row-queue';
import type { RunAccount } from '../../client/account-proof';
import { RunShelf, type RowReport } from './run-shelf';
import { connectedWorkers, type ConnectedWorker } from './queue-workers';
import { GIVE_PASSWORD, passwordPause, refusedByRedis } from './queue-password';
import { RedisBudget } from '../money/redis-budget';
import type { Budget } from '../../jobs/budget';
import type { QueueLink } from './queue-link';

/** A queued row's step let go because the studio quits (never seen outside this file). */
const QUEUE_CLOSED = new Error('the studio is quitting');

/**
 * A queue out of reach this long pauses the runs on it: a Redis restarted comes back well within it (rows
 * go on), one that has gone is said on the run's card instead of leaving it running in silence.
 */
export const QUEUE_LOST_PAUSE_MS = 20_000;

/** How the engine pauses runs: for a reason (RunStops.pause says which runs), or one run. */
export interface RunPauses {
  pause(task: Pick<RowTask, 'kind' | 'runId'>, reason: RunPauseReason, message: string): Promise<void>;
  pauseRun(kind: string, id: string, reason: RunPauseReason, message: string): Promise<void>;
}

/** What the starting studio's row engine lends the queued runs: a row to look at again, runs to pause. */
export interface QueuedRunsEngine {
  wake(task: RowTask): void;
  pauses: RunPauses;
  jobs: RowJobs;
  /** Whether the engine still writes its rows' changes (a stopped one writes nothing, and says nothing of it). */
  writes(): boolean;
}

/**
 * The starting studio's side of runs made on a queue: each take of a row of such a run is a job of the
 * queue carrying the row (row-takes.ts), and the row waits (its state says its first step) until a worker
 * answers how it ended; the kind then takes the report in (`received`: a done campaign row goes on to save
 * the studio's own copy, as any row does). The studio hears of finished takes on the queue's events, and
 * looks each take up by its id whenever its row is stepped (at every start and resume too), so a report
 * made while it was closed is taken in when it opens again; the job leaves the queue only once the row's
 * change is on disk. The run's record and its state are written to Redis, where workers read them before
 * making a row and before each paid request; a pause or cancel also takes the run's takes no worker has
 * begun off the queue (BullMQ's remove: its own pause is the whole queue's, and one queue serves every
 * run), and a resume hands them again. A worker stopped by the account has the whole run paused here.
 */
export class QueuedRuns {
  private readonly links = new Map<string, Promise<QueueLink>>();
  /** State changes written in order (a pause and a resume close together must land in that order). */
  private writes: Promise<unknown> = Promise.resolve();
  /** Queue addresses given in this process, by their shown form (the password is never written down). */
  private readonly addresses = new Map<string, string>();
  private engine: QueuedRunsEngine | null = null;
  private closed = false;
  /** Settles on close: a step waiting on Redis (gone, or refusing) lets go then instead of holding the quit. */
  private readonly closing: Promise<never>;
  private letGo: () => void = () => {};

  constructor(
    private readonly options: {
      log?: Logger;
      prefix?: string;
      /** Where a queue's password is kept; a persistent one (the desktop app's) outlives the studio. */
      vault?: Pick<CredentialVault, 'get' | 'set'> & Partial<Pick<CredentialVault, 'persistent'>>;
      /** The account a run is priced on (the studio's connection now): workers of another are refused its rows. */
      account?: (runId: string) => Promise<RunAccount | null>;
    } = {},
  ) {
    this.closing = new Promise<never>((_, reject) => (this.letGo = () => reject(QUEUE_CLOSED)));
    this.closing.catch(() => undefined);
  }

  /** Whether a queue's password given to this studio outlives it (its vault is persistent: the desktop app's). */
  get keepsPasswords(): boolean {
    return this.options.vault?.persistent ?? false;
  }

  attach(jobs: RowJobs, queue: Pick<InProcessRowQueue, 'push'>, pauses: RunPauses, writes: () => boolean): void {
    this.engine = { jobs, wake: (task) => queue.push(task), pauses, writes };
  }

  /** A queue the user named (its password included): answers the address a run records. */
  address(url: string): string {
    const target = redisTarget(url);
    this.addresses.set(target.shown, url);
    // With a password, the whole address is a secret: kept in the vault, so the studio opened again can
    // follow and resume the run (the run's record holds the address without it).
    if (url !== target.shown)
      void this.options.vault
        ?.set(queueVaultId(target.shown), url)
        .catch((error: unknown) =>
          this.options.log?.warn('the queue password could not be kept', { error: String(error) }),
        );
    return target.shown;
  }

  /** The kind as the engine runs it: a queued run's rows go to its workers until their reports come back. */
  wrap<Row extends RowBase, Run extends RunBase<Row>>(kind: RowKind<Row, Run>): RowKind<Row, Run> {
    const queued = kind.queued;
    if (!queued) return kind;
    return {
      ...kind,
      step: (context) =>
        context.run.queue && !queued.local(context.row)
          ? this.step(kind.name, context, queued, kind.cancelled).catch((error: unknown) => {
              // Let go as the studio quits: the row stays as it was, and goes to the queue again at the next start.
              if (error !== QUEUE_CLOSED) throw error;
            })
          : kind.step(context),
      onChange: (run) => {
        kind.onChange?.(run);
        if (run.queue) this.changed(kind.name, run);
      },
    };
  }

  /** The workers connected to a queue now, with what each last said of itself, for the pages and `campaign status`. */
  async workers(queue: string): Promise<ConnectedWorker[]> {
    const link = await this.link(queue);
    return connectedWorkers(link.takes.queue, link.takes.prefix, link.shelf, Date.now());
  }

  /**
   * The budget a queued run's rows are held on: its queue's Redis, shared by every studio sending rows to
   * it. The run is followed from here on, so a queue that refuses this studio or has gone pauses it
   * saying so, even before any of its rows started.
   */
  async budget(queue: string, run: string): Promise<Budget> {
    const link = await this.link(queue);
    const at = run.indexOf('/');
    this.live(this.follow(link, run.slice(0, at), run.slice(at + 1))).catch(() => undefined);
    return link.budget;
  }

  /** Counts of the queue's jobs by state, as BullMQ keeps them. */
  async counts(queue: string): Promise<Record<string, number>> {
    return (await this.link(queue)).takes.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized');
  }

  /**
   * Lets go of every queue within about a second, whatever Redis does (gone, or refusing this studio): a
   * step waiting on it lets go at once (its row stays as it was), state changes still on their way get a
   * moment, and every connection is dropped. Nothing recorded hangs on Redis: the rows' own records are
   * the engine's, on disk.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.letGo();
    await withinMs(this.writes, 500);
    const links = [...this.links.values()];
    this.links.clear();
    await Promise.all(
      links.map(async (made) => {
        const link = await made;
        link.following.clear();
        if (link.lost) clearTimeout(link.lost);
        await link.takes.closeWithin(0);
        await withinMs(link.redis.quit(), 200);
        link.redis.disconnect();
      }),
    );
  }

  /** `work`, unless the studio quits first (then QUEUE_CLOSED): a Redis that has gone keeps a command for ever. */
  private live<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.closing]);
  }

  private async step<Row extends RowBase, Run extends RunBase<Row>>(
    kind: string,
    { run, row, set }: RowStepContext<Row, Run>,
    queued: QueuedRows<Row>,
    cancelled: (row: Row) => Row,
  ): Promise<void> {
    if (this.closed) return;
    const link = await this.link(run.queue as string);
    // A row not made (held back at the queue, or answered "not made") waits with the rows not started,
    // or is cancelled with them: a cancelled run starts none again.
    const notMade = (r: Row): Row => (run.state === 'cancelled' ? cancelled(r) : { ...r, state: 'pending' });
    try {
      await this.live(this.follow(link, kind, run.id));
      await this.handOver(link, kind, run, row, set, { ...queued, notMade });
    } catch (error) {
      // Refused for want of the password: the run pauses saying so, and its rows stay as they are.
      if (error === QUEUE_CLOSED || !refusedByRedis(String(error))) throw error;
      await this.engine?.pauses.pauseRun(kind, run.id, 'queue', this.refusal(link));
    }
  }

  /** Takes the row's report in when a worker left one, else hands the row's take to the queue. */
  private async handOver<Row extends RowBase, Run extends RunBase<Row>>(
    link: QueueLink,
    kind: string,
    run: Run,
    row: Row,
    set: RowStepContext<Row, Run>['set'],
    queued: QueuedRows<Row> & { notMade: (row: Row) => Row },
  ): Promise<void> {
    const at: TakeAt = { kind, runId: run.id, row: row.row, take: row.take };
    const look = await this.live(link.takes.look(at));
    const found =
      look !== null && typeof look === 'object'
        ? { at, report: look.report }
        : await this.live(
            earlierTake(link.takes, at, row, queued.sameMaking, look !== null, {
              receive: (jobs) => this.engine?.jobs.receive?.(jobs),
              writes: () => this.engine?.writes() === true,
            }),
          );
    if (found) return this.takeIn(link, found, set, queued);
    if (look === 'at-queue') return;
    // Paused or cancelled, its take held back (or never handed): nothing goes to the queue until a resume.
    if (run.state !== 'running') return set(queued.notMade);
    // Cut off twice (its workers stopped while making it): made again, following the jobs made before.
    if (look === 'failed') return this.live(link.takes.retry(at));
    if (!link.states.has(`${kind}/${run.id}`)) {
      await this.live(this.putRun(link, kind, run));
      link.states.set(`${kind}/${run.id}`, run.state);
    }
    await this.live(link.takes.hand({ kind, runId: run.id, row }));
  }

  /** A worker's report taken in: its jobs join this studio's ledger, then the row, then the job leaves the queue. */
  private async takeIn<Row extends RowBase, Run extends RunBase<Row>>(
    link: QueueLink,
    { at: made, report }: { at: TakeAt; report: RowReport },
    set: RowStepContext<Row, Run>['set'],
    { received, notMade }: Pick<QueuedRows<Row>, 'received'> & { notMade: (row: Row) => Row },
  ): Promise<void> {
    // The worker's jobs join this studio's ledger first: the row's copy is saved and recorded as any result.
    if (report.jobs) await this.engine?.jobs.receive?.(report.jobs);
    // The report leaves the queue only once the row's change is on disk. A studio quitting stops its engine
    // first, and a stopped engine's `set` writes nothing (asked as it is called): a report taken off then
    // left the row in the record as still on the queue with nothing to take in, and a retry of that row
    // paid for its video again (issue 67). Kept, it is taken in at the next start.
    const written = this.engine?.writes() === true;
    const ended = report.outcome === 'ended';
    // Not made (the run was not running when a worker took it, or the account stopped it first): its job
    // leaves first, so the same take can be handed again when the run goes on; the row waits with those not started.
    if (!ended && written) await this.live(link.takes.taken(made));
    await set((r) => (ended ? received(r, report.record as Row) : notMade(r)));
    if (!written) return;
    if (ended) await this.live(link.takes.taken(made));
    if (report.pause) await this.engine?.pauses.pause(made, report.pause.reason, report.pause.message);
  }

  /** The run's record in Redis with its account's proof, what a worker reads: again at a resume (a cap raised). */
  private async putRun(link: QueueLink, kind: string, run: RunBase<RowBase>): Promise<void> {
    const account = (await this.options.account?.(run.id).catch(() => null)) ?? null;
    await link.shelf.putRun(kind, { ...run, account });
  }

  /** A queued run changed: its state goes to Redis for the workers; once finished, its records go. */
  private changed(kind: string, run: RunBase<RowBase>): void {
    this.writes = this.writes.then(async () => {
      if (this.closed) return;
      const link = await this.link(run.queue as string);
      const runKey = `${kind}/${run.id}`;
      const known = link.states.get(runKey);
      if (known === undefined || known === run.state) return;
      link.states.set(runKey, run.state);
      try {
        if (run.state === 'running') return await this.putRun(link, kind, run);
        if (run.state !== 'finished') {
          await link.shelf.setState(kind, run.id, run.state);
          return await this.holdBack(link, kind, run);
        }
        link.following.delete(runKey);
        link.states.delete(runKey);
        await link.shelf.forget(kind, run.id);
        // Takes of rows cancelled while they waited at the queue would only be answered "not run".
        const cancelled = run.rows.filter((r) => r.state === 'cancelled');
        await link.takes.drop(cancelled.map((r) => ({ kind, runId: run.id, row: r.row, take: r.take })));
      } catch (error) {
        this.warn(link, 'a queued run could not be written to Redis', error);
      }
    });
  }

  /**
   * A run paused or cancelled: its takes no worker has begun leave the queue (held back there, not each
   * taken only to be answered "not made"), and their rows are stepped, to wait with the rows not started
   * (or be cancelled); a resume hands them again. A take under way stays with its worker, which reads the
   * run's state before each paid request: BullMQ stops no job under way in another process.
   */
  private async holdBack(link: QueueLink, kind: string, run: RunBase<RowBase>): Promise<void> {
    const under = run.rows.filter(rowUnderWay).map((r) => ({ kind, runId: run.id, row: r.row, take: r.take }));
    for (const held of await link.takes.holdBack(under)) this.engine?.wake({ kind, runId: run.id, row: held.row });
  }

  private link(shown: string): Promise<QueueLink> {
    // A link opened after close would be left out of it, and its connection, retrying a Redis that has
    // gone, would keep a command that has finished from exiting.
    if (this.closed) return Promise.reject(QUEUE_CLOSED);
    let link = this.links.get(shown);
    if (!link) {
      link = this.open(shown);
      this.links.set(shown, link);
    }
    return link;
  }

  private async open(shown: string): Promise<QueueLink> {
    const url =
      this.addresses.get(shown) ?? (await this.options.vault?.get(queueVaultId(shown)).catch(() => undefined)) ?? shown;
    const target = redisTarget(url);
    const redis = new Redis(target.options);
    const link: QueueLink = {
      takes: new RowTakes({ url, prefix: this.options.prefix, log: this.options.log }),
      redis,
      shelf: new RunShelf(redis, this.options.prefix),
      budget: new RedisBudget(redis, this.options.prefix),
      states: new Map(),
      following: new Set(),
      events: null,
      down: false,
      lost: null,
      lostSaid: null,
    };
    redis.on('error', (error: Error) => {
      if (refusedByRedis(String(error))) return void this.pauseFollowed(link, this.refusal(link));
      if (link.down) return;
      link.down = true;
      this.warn(link, 'the queue cannot reach Redis (trying again until it answers)', error);
      const said = target.scrub(error.message);
      link.lost = setTimeout(() => {
        const message = `The queue at ${target.shown} has not answered for ${QUEUE_LOST_PAUSE_MS / 1000} s (${said}): the workers' reports wait in its Redis. Resume, or run the campaign again, once it answers.`;
        link.lostSaid = message;
        void this.pauseFollowed(link, message);
      }, QUEUE_LOST_PAUSE_MS);
      link.lost.unref?.();
    });
    redis.on('ready', () => {
      if (link.lost) clearTimeout(link.lost);
      link.lost = null;
      link.lostSaid = null;
      if (link.down) this.options.log?.info('the queue reaches Redis again', { redis: target.shown });
      link.down = false;
    });
    return link;
  }

  /** Why the queue's Redis refuses this studio, and how to go on. */
  private refusal(link: QueueLink): string {
    return `${passwordPause(link.takes.target.shown, this.keepsPasswords)} ${GIVE_PASSWORD}.`;
  }

  /** Every run this studio follows on the queue pauses with `message` (once: a paused run is not paused again). */
  private async pauseFollowed(link: QueueLink, message: string): Promise<void> {
    if (this.closed) return;
    await Promise.all(
      [...link.following].map((key) => {
        const at = key.indexOf('/');
        return this.engine?.pauses.pauseRun(key.slice(0, at), key.slice(at + 1), 'queue', message);
      }),
    );
  }

  /**
   * Follows the run's takes: a take a worker finishes has its row stepped (its report taken in). Settles
   * once the queue's events are read, so no take handed after it ends unheard.
   */
  private async follow(link: QueueLink, kind: string, runId: string): Promise<void> {
    const runKey = `${kind}/${runId}`;
    if (!link.following.has(runKey) && !this.closed) {
      link.following.add(runKey);
      // Followed only after its queue was found gone (a resume on a busy machine can come that late): it
      // pauses now, or it would wait for reports with nothing left to pause it.
      if (link.lostSaid) void this.engine?.pauses.pauseRun(kind, runId, 'queue', link.lostSaid);
    }
    link.events ??= link.takes.follow((ended) => {
      if (link.following.has(`${ended.kind}/${ended.runId}`))
        this.engine?.wake({ kind: ended.kind, runId: ended.runId, row: ended.row });
    });
    // Refused or unreachable: asked again at the row's next step.
    await link.events.catch((error: unknown) => {
      link.events = null;
      throw error;
    });
  }

  private warn(link: QueueLink, message: string, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    this.options.log?.warn(message, { error: link.takes.target.scrub(text) });
  }
}
