import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { DownloadEntry, DownloadTotals, DownloadView } from '../../common/bridge/downloads';
import { describeFailure, partPath } from './fetch-to-file';
import { savedChange, transferOnce } from './transfer-once';
import { checkSavedCopies } from './copy-check';
import { FullDisks, keptBytes } from './full-disks';
import { countStates, QueueRun, queueTotals, type StateCounts } from './queue-totals';
import { FINISHED, freeName, heldNames, nameFor, newEntry, REFETCH_RESET, targetOf } from './queue-names';
import type { EnqueueRequest } from './queue-names';
import { MissingDrives } from './drives';
import { savedCopyAmong } from './queue-file';
import { SpeedLimit } from './speed-limit';
import { DownloadProgress } from './download-progress';
import { DownloadSlots } from './download-slots';
import { RunningTransfers } from './running-transfers';
import { transferWithRetries } from './transfer-retries';
import type { DownloadManagerOptions } from './download-manager-options';
import { QueueWindow } from './queue-window';
import { HeldCopies } from './held-copies';
import { HeldDownloads } from './held-downloads';

export type { EnqueueRequest } from './queue-names';
export type { DownloadManagerOptions } from './download-manager-options';

/**
 * The download queue: entries on disk survive a crash (a running download comes back queued and resumes
 * its `.part`), a few run at once, network errors and 5xx are retried with backoff, a full disk pauses
 * the whole queue with a message and loses nothing, and each entry can be paused, resumed or cancelled.
 */
export class DownloadManager {
  private readonly entries = new HeldDownloads();
  private readonly running = new RunningTransfers();
  private readonly slots: DownloadSlots;
  /** Views with speed and time left, and the throttled news of them. */
  private readonly progress: DownloadProgress;
  private readonly fullDisks = new FullDisks();
  private readonly queueRun = new QueueRun();
  /** Folders whose drive is unplugged or unmounted: nothing is saved there until it is back. */
  readonly drives: MissingDrives;
  private readonly store: DownloadManagerOptions['store'];
  private disposed = false;
  private verifying: Promise<unknown> = Promise.resolve();
  private readonly limit: SpeedLimit;
  /** The downloads waiting in the record beyond those held (a selection of any size): see QueueWindow. */
  readonly window: QueueWindow;
  /** Which ended downloads stay in memory: a worker lets a reported row's go (HeldCopies). */
  readonly copies: HeldCopies;

  constructor(private readonly options: DownloadManagerOptions) {
    this.slots = new DownloadSlots(() => options.concurrency?.());
    const now = () => this.now();
    this.progress = new DownloadProgress(options, now, () => this.totals());
    this.store = options.store;
    this.copies = new HeldCopies(this.entries, options.store);
    this.limit = new SpeedLimit(() => options.speedLimit?.() ?? null);
    // A drive gone or back changes the banner at once.
    const told = () => options.onTotals?.(this.totals());
    this.drives = new MissingDrives(() => this.entries.values(), told, options.statDevice);
    for (const entry of this.store.load()) {
      // A download that was running when the studio stopped resumes from its `.part`.
      this.entries.set(entry.id, entry.state === 'downloading' ? { ...entry, state: 'queued' } : entry);
    }
    this.window = new QueueWindow(this.store.backlog, options.resumeQueued !== false, {
      held: this.entries,
      save: (entries) => this.store.save(entries),
      start: (entry) => this.schedule(entry.id),
      fail: (entry, error) => this.update(entry, { state: 'failed', reason: describeFailure(error) }, true),
    });
    if (options.resumeQueued === false) return;
    for (const entry of this.entries.values()) if (entry.state === 'queued') this.schedule(entry.id);
    this.window.refill();
  }

  private readonly now = (): number => this.options.now?.() ?? Date.now();

  /** The entries (those `keep` keeps; those saved at `savedAt`), each viewed: filtered first, as a view is a copy. */
  list(keep?: (entry: DownloadEntry) => boolean, savedAt?: string): DownloadView[] {
    const out: DownloadView[] = [];
    const among = savedAt === undefined ? this.entries.values() : this.entries.savedAt(savedAt);
    for (const entry of among) if (!keep || keep(entry)) out.push(this.progress.view(entry));
    return out;
  }

  /** How many entries (of those `keep` keeps) are in each state; nothing is viewed or copied. */
  countStates(keep: (entry: DownloadEntry) => boolean): StateCounts {
    return countStates(this.entries.values(), keep);
  }

  get = (id: string): DownloadView => this.progress.view(this.require(id));

  /** Every entry for a job, newest first. */
  forJob = (jobId: string): DownloadView[] => this.entries.ofJob(jobId).map((e) => this.progress.view(e));

  /** The download that keeps this job's copy under this name in this folder (the name asked for). */
  copyAt(jobId: string, folder: string, name: string): DownloadView | undefined {
    const entry = this.entries.copyAt(jobId, folder, name);
    return entry && this.progress.view(entry);
  }

  /** This link's newest saved copy still on disk at its size, or null: the media cache reads it after expiry. */
  savedCopyOf(url: string): Promise<string | null> {
    return savedCopyAmong(this.entries.values(), url);
  }

  totals(): DownloadTotals {
    const reasons = [this.fullDisks.reason(), this.drives.reason()];
    return queueTotals(this.entries.values(), reasons, this.queueRun, this.window.waiting);
  }

  /** Adds a download with a name no other file, `.part` or download in flight holds. */
  async enqueue(request: EnqueueRequest): Promise<DownloadView> {
    return (await this.enqueueAll([request]))[0];
  }

  /** Adds downloads in one go (names: see nameFor), written once, then started; a bad name refuses all. */
  async enqueueAll(requests: readonly EnqueueRequest[]): Promise<DownloadView[]> {
    const added: DownloadEntry[] = [];
    const held = heldNames(this.entries.values());
    try {
      for (const request of requests) {
        const folder = resolve(request.folder);
        const relativeName = await nameFor(request, folder, held);
        const entry = newEntry(request, folder, relativeName, this.now());
        this.entries.set(entry.id, entry);
        added.push(entry);
      }
    } catch (error) {
      for (const entry of added) this.entries.delete(entry.id);
      throw error;
    }
    await this.store.save(added);
    for (const entry of added) {
      this.schedule(entry.id);
      this.progress.changed(entry, true);
    }
    return added.map((entry) => this.progress.view(entry));
  }

  /** Records downloads in the backlog (QueueWindow.add: recorded paused or not, flushed or not), held once taken in. */
  enqueueBacklog(requests: readonly EnqueueRequest[], { paused = false, flushed = true } = {}): DownloadView[] {
    const added = this.window.add(requests, this.now(), paused, flushed);
    this.window.refill();
    this.options.onTotals?.(this.totals());
    return added.map((entry) => this.progress.view(entry));
  }

  pause(id: string): DownloadView {
    const entry = this.require(id);
    if (entry.state !== 'queued' && entry.state !== 'downloading') return this.progress.view(entry);
    this.update(entry, { state: 'paused', reason: null }, true);
    this.running.stop(id);
    return this.progress.view(entry);
  }

  /** The view once its transfer has let go: a file past its last byte may end saved though paused. */
  settled = async (id: string): Promise<DownloadView> => this.running.endOf(id).then(() => this.get(id));

  resume(id: string): DownloadView {
    const entry = this.require(id);
    // Queued by an earlier start and not started here (resumeQueued off): started now; run() ignores duplicates.
    if (entry.state === 'queued') this.schedule(id);
    if (entry.state !== 'paused' && entry.state !== 'failed') return this.progress.view(entry);
    this.update(entry, { state: 'queued', reason: null, attempts: 0 }, true);
    this.schedule(id);
    return this.progress.view(entry);
  }

  async cancel(id: string): Promise<DownloadView> {
    const entry = this.require(id);
    if (FINISHED.has(entry.state) && entry.state !== 'failed') return this.progress.view(entry);
    // Set before the abort, so the running transfer stops as cancelled, but announced only once its
    // `.part` is gone: a row saying "Only on the service" beside a half-written file would be untrue.
    this.update(entry, { state: 'cancelled', reason: 'Cancelled.' }, false);
    this.running.stop(id);
    await this.running.endOf(id);
    // One never named never wrote: the `.part` under the name it asked for is another download's.
    if (!entry.unnamed) await rm(partPath(targetOf(entry.folder, entry.relativeName)), { force: true });
    this.update(entry, {}, true);
    this.options.onEnd?.(this.progress.view(entry));
    return this.progress.view(entry);
  }

  /**
   * Looks at every saved copy (and every one found missing or changed before, which may be back: a disk
   * mounted again): still the bytes that were written? Answers the copies whose state changed. One check
   * runs at a time; a second call waits for it and checks again.
   */
  verifySaved({ deep, ids }: { deep: boolean; ids?: readonly string[] }): Promise<DownloadView[]> {
    const run = this.verifying.then(async () => {
      const pool = ids
        ? ids.map((id) => this.entries.get(id)).filter((e): e is DownloadEntry => e !== undefined)
        : [...this.entries.values()];
      const { moved, learnt } = await checkSavedCopies(pool, deep, {
        now: () => this.now(),
        stopped: () => this.disposed,
        update: (entry, change) => this.update(entry, change, true),
        driveMissing: (folder) => this.drives.check(folder),
        deviceOf: (folder) => this.drives.deviceOf(folder),
      });
      if (learnt) void this.store.save(pool, { durable: false });
      return moved.map((entry) => this.progress.view(entry));
    });
    this.verifying = run.catch(() => []);
    return run;
  }

  /**
   * A saved copy that went missing (or changed, when its owner asks for it back in place) is fetched
   * again under its own name (the link must still work).
   */
  refetch(id: string, reason: string): DownloadView {
    const entry = this.require(id);
    if (!['missing', 'failed', 'changed'].includes(entry.state)) return this.progress.view(entry);
    this.update(entry, { ...REFETCH_RESET, state: 'queued', reason, refetchedAt: this.now() }, true);
    this.schedule(id);
    return this.progress.view(entry);
  }

  /** Gives a saved copy another name in its folder by moving the file: nothing is fetched. */
  async moveSaved(id: string, requested: string): Promise<DownloadView> {
    const entry = this.require(id);
    if (entry.state !== 'saved' || entry.savedPath === null) throw new Error('Only a copy on disk can be renamed.');
    if (entry.relativeName === requested) return this.progress.view(entry);
    const name = await freeName(heldNames(this.entries.values()), entry.folder, requested, entry.relativeName);
    const target = targetOf(entry.folder, name);
    await mkdir(dirname(target), { recursive: true });
    await rename(entry.savedPath, target);
    this.update(entry, { relativeName: name, requestedName: requested, savedPath: target }, true);
    await this.store.written();
    return this.progress.view(entry);
  }

  /** Copies found on disk that an earlier version recorded elsewhere (see adoptCopies), kept as they are. */
  async adopt(entries: readonly DownloadEntry[]): Promise<void> {
    for (const entry of entries) this.entries.set(entry.id, entry);
    if (entries.length > 0) await this.store.save(entries);
  }

  /** Pauses every download held, then those of the backlog (and a selection still being queued). */
  pauseAll(): Promise<number> {
    return this.window.quiet('pause', async () => {
      const active = [...this.entries.values()].filter((e) => e.state === 'queued' || e.state === 'downloading');
      for (const entry of active) this.pause(entry.id);
      const waiting = await this.window.pauseAll(this.now());
      this.options.onTotals?.(this.totals());
      return active.length + waiting;
    });
  }

  cancelAll = (): Promise<number> =>
    this.window.quiet('cancel', async () => {
      const open = [...this.entries.values()].filter((e) => ['queued', 'downloading', 'paused'].includes(e.state));
      const dropped = await this.window.cancelAll();
      await Promise.all(open.map((entry) => this.cancel(entry.id)));
      // Nothing waits for a full disk any more: its banner goes with the downloads it was about.
      if (!this.countStates((e) => e.state === 'queued').queued) this.fullDisks.clear();
      this.options.onTotals?.(this.totals());
      return open.length + dropped;
    });

  /** A changed concurrency setting applies now, not only to the next download queued. */
  applySettings(): void {
    this.slots.applyConcurrency();
  }

  /** After a full disk, or "Pause all" of a backlog (no rows in the page to resume): the queue goes on. */
  async resumeAll(): Promise<DownloadTotals> {
    this.fullDisks.clear();
    for (const entry of this.entries.values()) if (entry.state === 'queued') this.schedule(entry.id);
    if (this.window.paused > 0) await this.window.resumeAll(this.now());
    this.window.refill();
    this.options.onTotals?.(this.totals());
    return this.totals();
  }

  /** Looks at the drives of the folders holding copies and at full disks: what waited for one back, or for room, starts. */
  async checkDrives(): Promise<string[]> {
    const [back, room] = [await this.drives.checkAll(), await this.fullDisks.roomAgain()];
    for (const entry of this.entries.values())
      if (entry.state === 'queued' && (room || back.includes(entry.folder))) this.schedule(entry.id);
    if (room) this.options.onTotals?.(this.totals());
    return back;
  }

  /** Settles once every change made so far is in the record (what a query of the table then reads). */
  recorded = (): Promise<void> => this.store.written();

  /** Settles when nothing is queued or running, finishing files included (tests, the CLI). */
  async whenIdle(): Promise<void> {
    do {
      await this.slots.whenIdle();
      await this.store.written();
    } while (!this.disposed && (await this.window.refilled()));
  }

  /** Stops every download where it is; they resume from their `.part` at the next start. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.window.stop();
    this.slots.close();
    await this.running.stopAll();
    await this.store.close();
  }

  private schedule(id: string): void {
    if (this.disposed) return;
    // run() gives its place back once the last byte is in (DownloadSlots says why).
    this.slots.add((release) => this.run(id, release));
  }

  private async run(id: string, received: () => void): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry || entry.state !== 'queued' || this.running.has(id) || this.disposed) return;
    const { signal, end } = this.running.start(id);
    const waiting = (await this.fullDisks.waitFor(entry.folder)) ?? (await this.drives.check(entry.folder));
    if (waiting) {
      // Waits for resumeAll() (a full disk) or checkDrives() (a drive back); not scheduled until then.
      end();
      if (entry.reason !== waiting) this.update(entry, { reason: waiting }, true);
      return;
    }
    // Shown, not written: a download found "downloading" on disk comes back queued anyway.
    Object.assign(entry, { state: 'downloading', reason: null, updatedAt: this.now() });
    this.progress.changed(entry, true);
    const meter = this.progress.measure(id);
    try {
      if (entry.unnamed) {
        // Taken in by its id from the backlog (a row the page showed) and resumed: named before a byte.
        await this.window.name([entry], () => this.entries.values());
        await this.store.save([entry]);
      }
      const target = targetOf(entry.folder, entry.relativeName);
      await this.options.prepare?.(entry);
      const attempt = () =>
        transferOnce(
          { entry, target, signal, meter, received },
          { ...this.options, limit: this.limit, progress: this.progress },
          (change) => this.update(entry, change, false),
        );
      const outcome = await transferWithRetries(attempt, {
        signal,
        attemptsSoFar: entry.attempts,
        policy: this.options,
        onRetry: (attempts, reason) => this.update(entry, { attempts, reason }, true),
      });
      if (outcome.kind === 'done') {
        const identity = await this.drives.identityOf(entry.folder);
        this.update(entry, await savedChange(target, outcome.value.sha256, this.now(), identity), true);
      } else if (outcome.kind === 'disk-full') {
        await this.pauseForFullDisk(entry);
      } else if (outcome.kind === 'failed') {
        this.update(entry, { state: 'failed', attempts: outcome.attempts, reason: outcome.reason }, true);
      }
    } catch (error) {
      this.update(entry, { state: 'failed', reason: describeFailure(error) }, true);
    } finally {
      end();
      this.progress.stopMeasuring(id);
      // Read afresh: pause, cancel and dispose change it while the download runs.
      const state = (): DownloadEntry['state'] => entry.state;
      if (this.disposed && state() === 'downloading') entry.state = 'queued';
      await this.store.save([entry]);
      if (FINISHED.has(state()) && state() !== 'cancelled') this.options.onEnd?.(this.progress.view(entry));
      // Back in line (a full disk, or resumed while this run was winding down): it runs again when
      // the queue does; run() ignores duplicates.
      if (state() === 'queued' && !this.disposed) this.schedule(id);
      this.window.refill();
    }
  }

  /** Only the downloads writing to that disk wait; the others (the archive on another disk) go on. */
  private async pauseForFullDisk(entry: DownloadEntry): Promise<void> {
    const reason = await this.fullDisks.markFull(entry.folder);
    this.options.log?.warn('downloads paused: disk full', { folder: entry.folder });
    // Back in line with what its `.part` kept (more came than the disk took); it resumes from there.
    this.update(entry, { state: 'queued', reason, bytes: await keptBytes(entry) }, true);
  }

  private update(entry: DownloadEntry, change: Partial<DownloadEntry>, emit: boolean): void {
    Object.assign(entry, change, { updatedAt: this.now() });
    if (this.entries.get(entry.id) === entry) this.entries.set(entry.id, entry); // indexed anew (HeldDownloads)
    if (emit) {
      this.progress.changed(entry, true);
      void this.store.save([entry]);
    }
  }

  /** The entry held, or one of the backlog taken in by its id (its row was shown). */
  private require(id: string): DownloadEntry {
    let entry = this.entries.get(id);
    if (!entry) {
      entry = this.window.takeOne(id) ?? undefined;
      if (entry) this.entries.set(id, entry);
    }
    if (!entry) throw new Error(`No download with id ${id}.`);
    return entry;
  }
}
