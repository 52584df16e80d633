import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { MAX_LISTED_DOWNLOADS } from '../../common/bridge/downloads';
import type { DownloadEntry, DownloadTotals, DownloadView } from '../../common/bridge/downloads';
import { describeFailure, partPath } from './fetch-to-file';
import { CopyChecks, type CheckRequest } from './copy-check';
import { FullDisks } from './full-disks';
import { QueueRun, queueTotals } from './queue-totals';
import { FINISHED, freeName, heldNames, nameFor, newEntry, REFETCH_RESET, targetOf } from './queue-names';
import type { EnqueueRequest } from './queue-names';
import { MissingDrives } from './drives';
import { SpeedLimit } from './speed-limit';
import { DownloadProgress } from './download-progress';
import { DownloadSlots } from './download-slots';
import { RunningTransfers } from './running-transfers';
import { runDownload, type RunHost } from './download-run';
import type { DownloadManagerOptions } from './download-manager-options';
import { QueueWindow } from './queue-window';
import { HeldCopies } from './held-copies';
import { HeldDownloads } from './held-downloads';
import { RecordedDownloads } from './recorded-downloads';

export type { EnqueueRequest } from './queue-names';
export type { DownloadManagerOptions } from './download-manager-options';

/** States of a download under way: the manager holds every one of these, and only these for long. */
const UNDER_WAY: ReadonlySet<DownloadEntry['state']> = new Set(['queued', 'downloading', 'paused']);

/**
 * The download queue: entries on disk survive a crash (a running download comes back queued and resumes
 * its `.part`), a few run at once, network errors and 5xx are retried with backoff, a full disk pauses
 * the whole queue with a message and loses nothing, and each entry can be paused, resumed or cancelled.
 *
 * It holds the downloads under way and nothing else for long: an entry that ends (saved, failed,
 * cancelled, found missing) is let go once its change is written, and asked of the record by an indexed
 * question when it is needed again (RecordedDownloads). A folder of a million jobs has a third of a
 * million saved copies, which held whole were 470 bytes of heap each.
 */
export class DownloadManager {
  private readonly entries = new HeldDownloads();
  /** Every entry, held or recorded, as the manager answers for it (indexed questions of the record). */
  readonly lookup: RecordedDownloads;
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
  private readonly checks: CopyChecks;
  private readonly limit: SpeedLimit;
  /** The downloads waiting in the record beyond those held (a selection of any size): see QueueWindow. */
  readonly window: QueueWindow;
  /** The facts of a copy saved at a path, for a worker's report (HeldCopies). */
  readonly copies: HeldCopies;

  constructor(private readonly options: DownloadManagerOptions) {
    this.slots = new DownloadSlots(() => options.concurrency?.());
    const now = () => this.now();
    this.progress = new DownloadProgress(options, now, () => this.totals());
    this.store = options.store;
    this.lookup = new RecordedDownloads(this.entries, options.store.lookups, (e) => this.progress.view(e));
    this.copies = new HeldCopies(this.entries, options.store.lookups);
    this.limit = new SpeedLimit(() => options.speedLimit?.() ?? null);
    // A drive gone or back changes the banner at once.
    const told = () => options.onTotals?.(this.totals());
    const copiesIn = (folder: string) => this.lookup.copiesIn([folder]);
    this.drives = new MissingDrives(() => this.lookup.drives(), told, options.statDevice, copiesIn);
    this.checks = new CopyChecks({
      now,
      stopped: () => this.disposed,
      update: (entry, change) => this.update(entry, change, true),
      driveMissing: (folder) => this.drives.check(folder),
      deviceOf: (folder) => this.drives.deviceOf(folder),
      learnt: (pool) => void this.store.save(pool, { durable: false }),
      among: (ids) => (ids ? ids.flatMap((id) => this.lookup.entry(id) ?? []) : this.lookup.copies()),
    });
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

  /** The downloads under way (queued, running, paused), newest first, at most MAX_LISTED_DOWNLOADS. */
  list(): DownloadView[] {
    const open = [...this.entries.values()].filter((e) => UNDER_WAY.has(e.state));
    open.sort((a, b) => b.createdAt - a.createdAt);
    return open.slice(0, MAX_LISTED_DOWNLOADS).map((e) => this.progress.view(e));
  }

  /** How many entries the manager holds (the downloads under way, and ended ones until written). */
  get heldCount(): number {
    return this.entries.size;
  }

  get = (id: string): DownloadView => this.progress.view(this.require(id));

  /** Every entry for a job, newest first. */
  forJob = (jobId: string): DownloadView[] => this.lookup.forJob(jobId);

  totals(): DownloadTotals {
    const reasons = [this.fullDisks.reason(), this.drives.reason()];
    return queueTotals(this.entries.values(), reasons, this.queueRun, this.window.waiting, this.window.paused);
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
   * mounted again), or those of `ids`: still the bytes that were written? Every copy is read from the
   * record a page at a time, each change written and shown as it is found (CopyChecks).
   */
  verifySaved = async (request: CheckRequest): Promise<DownloadView[]> =>
    (await this.checks.run(request)).map((entry) => this.progress.view(entry));

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
    for (const entry of entries) {
      this.entries.set(entry.id, entry);
      this.drives.saw(entry);
    }
    if (entries.length === 0) return;
    await this.store.save(entries);
    for (const entry of entries) this.release(entry);
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
      if (![...this.entries.values()].some((e) => e.state === 'queued')) this.fullDisks.clear();
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

  private run(id: string, received: () => void): Promise<void> {
    const { entries, running, fullDisks, drives, progress, window, limit, options } = this;
    const host: RunHost = {
      ...{ entries, running, fullDisks, drives, progress, window, limit, options },
      now: this.now,
      disposed: () => this.disposed,
      update: (entry, change, emit) => this.update(entry, change, emit),
      release: (entry) => this.release(entry),
      schedule: (next) => this.schedule(next),
    };
    return runDownload(host, id, received);
  }

  /**
   * Changes an entry, held from now on (indexed anew: HeldDownloads); `emit` shows and writes it, and an
   * entry that ended is let go once written. Unwritten changes (a transfer's bytes) keep it held.
   */
  private update(entry: DownloadEntry, change: Partial<DownloadEntry>, emit: boolean): void {
    Object.assign(entry, change, { updatedAt: this.now() });
    this.entries.set(entry.id, entry);
    if (!emit) return;
    this.progress.changed(entry, true);
    void this.store.save([entry]);
    this.release(entry);
  }

  /**
   * An ended entry leaves memory once every change asked so far is written: what is asked of the record
   * from then on finds it as it is. Still held if it changed meanwhile (resumed, running again), or if
   * its write failed and waits for the next (the record is not the truth yet).
   */
  private release(entry: DownloadEntry): void {
    if (!FINISHED.has(entry.state)) return;
    void this.store.written().then(() => {
      const held = this.entries.get(entry.id) === entry && FINISHED.has(entry.state);
      if (!held || this.running.has(entry.id) || this.store.unwritten(entry.id)) return;
      this.entries.delete(entry.id);
      this.queueRun.letGo(entry);
    });
  }

  /**
   * The entry held; else one of the backlog taken in by its id (its row was shown), or one the record
   * keeps (a copy to fetch again, a failed download to resume): held from now on, let go again if it
   * stays ended.
   */
  private require(id: string): DownloadEntry {
    let entry = this.entries.get(id);
    if (!entry) {
      entry = this.window.takeOne(id) ?? this.options.store.lookups.get(id) ?? undefined;
      if (entry) this.entries.set(id, entry);
      if (entry) this.release(entry);
    }
    if (!entry) throw new Error(`No download with id ${id}.`);
    return entry;
  }
}
