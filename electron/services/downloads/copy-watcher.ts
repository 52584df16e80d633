import { watch as fsWatch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DownloadEntry } from '../../common/bridge/downloads';
import type { Logger } from '../host/types';
import { yieldTurn } from './queue-window';

/** A folder being watched; `watch` throws when the folder cannot be (gone, not allowed, no watches left). */
export type WatchFolder = (folder: string, touched: () => void, failed: () => void) => { close(): void };

/**
 * Node's own watcher, one folder deep: the folders that hold copies are known from the record, so no
 * tree is walked (Node 20's recursive watch on Linux walks and watches every folder below, ~/Videos
 * included). Not persistent: it never keeps a command line or a test's process alive.
 */
const watchFolder: WatchFolder = (folder, touched, failed) => {
  const watcher = fsWatch(folder, { persistent: false }, touched);
  watcher.on('error', failed);
  return watcher;
};

export interface CopyWatcherDeps {
  /** The record's copies (saved, or found missing or changed before, which may come back), read as they come. */
  copies(): Iterable<Pick<DownloadEntry, 'id' | 'state' | 'savedPath'>>;
  /** The copies saved in a folder or below it, asked by an index; absent: picked out of copies(). */
  copiesUnder?(folder: string): Iterable<Pick<DownloadEntry, 'id' | 'state' | 'savedPath'>>;
  /** Checks these copies against the disk now (every copy without ids), drives first. */
  check(ids?: readonly string[]): Promise<unknown>;
  log: Pick<Logger, 'warn'>;
  watch?: WatchFolder;
  /** How often the folders that cannot be watched are looked at (a network share, a drive that is gone). */
  pollMs?: number;
  /** How often every copy is looked at: a watch does not see a parent folder moved or renamed. */
  sweepMs?: number;
  /** Events of a folder are taken together for this long: one file written fires many. */
  settleMs?: number;
}

/** A folder is the same folder while its device and inode are (a mount or a move changes them). */
const identityOf = async (folder: string): Promise<string | null> => {
  const info = await stat(folder).catch(() => null);
  return info ? `${info.dev}:${info.ino}` : null;
};

const isCopy = (state: DownloadEntry['state']) => state === 'saved' || state === 'missing' || state === 'changed';

/**
 * Follows the disk under the record of copies: a copy deleted, moved or changed is checked (and so shown,
 * and fetched back where that is the rule) within moments of the change, not at the next hourly check or
 * page load. Folders that cannot be watched are looked at every `pollMs` instead, and every copy every
 * `sweepMs`, for what a watch cannot see.
 */
export class CopyWatcher {
  /** Each watched folder with its device and inode when its watch began (null until read). */
  private readonly watched = new Map<string, { close(): void; identity: string | null }>();
  private readonly unwatched = new Set<string>();
  private readonly touched = new Set<string>();
  private settle: ReturnType<typeof setTimeout> | undefined;
  private following: ReturnType<typeof setTimeout> | undefined;
  private timers: ReturnType<typeof setInterval>[] = [];
  private checking: Promise<unknown> = Promise.resolve();
  private stopped = true;
  /**
   * The folders copies are in, read whole only at the start and at each sweep (a walk of every copy
   * recorded, a page at a time); a copy saved meanwhile adds its own folder (followSoon).
   */
  private known = new Set<string>();
  /** A followSoon() named no folder: the next follow reads every copy's folder again. */
  private readAll = false;

  constructor(private readonly deps: CopyWatcherDeps) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.refresh();
    const every = (ms: number, work: () => void) => {
      const timer = setInterval(work, ms);
      timer.unref?.();
      this.timers.push(timer);
    };
    every(this.deps.pollMs ?? 10_000, () => this.poll());
    every(this.deps.sweepMs ?? 60_000, () => void this.run(undefined).then(() => this.refresh()));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    clearTimeout(this.settle);
    clearTimeout(this.following);
    this.settle = this.following = undefined;
    for (const watcher of this.watched.values()) watcher.close();
    this.watched.clear();
    this.unwatched.clear();
  }

  /** Settles when the checks asked for so far are done (tests, shutdown). */
  idle(): Promise<unknown> {
    return this.checking;
  }

  /**
   * The watched folders follow the record: a copy saved in a new folder gets its folder watched (and
   * checked once, as a change before the watch began is not reported), one no copy is in any more is let go.
   */
  follow(): void {
    if (this.stopped) return;
    const folders = this.known;
    for (const [folder, watcher] of this.watched)
      if (!folders.has(folder)) {
        watcher.close();
        this.watched.delete(folder);
      }
    for (const folder of this.unwatched) if (!folders.has(folder)) this.unwatched.delete(folder);
    for (const folder of folders)
      if (!this.watched.has(folder) && !this.unwatched.has(folder)) {
        this.watch(folder);
        this.heard(folder);
      }
  }

  /**
   * follow() once the copies saved about now are in (a run of hundreds saves as many), with the folder
   * a copy was saved in; without one, every copy's folder is read again first.
   */
  followSoon(folder?: string): void {
    if (this.stopped) return;
    if (folder === undefined) this.readAll = true;
    else this.known.add(folder);
    this.following ??= setTimeout(() => {
      this.following = undefined;
      const all = this.readAll;
      this.readAll = false;
      if (all) void this.refresh();
      else this.follow();
    }, this.deps.settleMs ?? 200);
  }

  /** Reads every copy's folder afresh, giving the thread back between pages, then follows them. */
  private async refresh(): Promise<void> {
    const out = new Set<string>();
    let read = 0;
    for (const copy of this.deps.copies()) {
      if (copy.savedPath && isCopy(copy.state)) out.add(dirname(copy.savedPath));
      if (++read % 1_000 === 0) await yieldTurn();
    }
    this.known = out;
    this.follow();
  }

  private watch(folder: string): void {
    try {
      const watcher = (this.deps.watch ?? watchFolder)(
        folder,
        () => this.heard(folder),
        () => {
          if (this.watched.get(folder) === watching) this.lose(folder);
        },
      );
      const watching = { close: () => watcher.close(), identity: null as string | null };
      this.watched.set(folder, watching);
      void identityOf(folder).then((identity) => {
        if (this.watched.get(folder) !== watching) return;
        if (identity === null) this.lose(folder);
        else watching.identity = identity;
      });
      this.unwatched.delete(folder);
    } catch {
      // Gone (a copy missing with its folder, a drive unplugged), or no watch to be had: looked at by poll().
      this.unwatched.add(folder);
    }
  }

  /** A watch that failed, or whose folder went (deleted, moved, unmounted), is polled until it can watch again. */
  private lose(folder: string): void {
    this.watched.get(folder)?.close();
    this.watched.delete(folder);
    if (!this.stopped) this.unwatched.add(folder);
    this.heard(folder);
  }

  private heard(folder: string): void {
    if (this.stopped) return;
    this.touched.add(folder);
    this.settle ??= setTimeout(() => {
      this.settle = undefined;
      const folders = new Set(this.touched);
      this.touched.clear();
      void this.run(this.idsIn(folders), folders);
    }, this.deps.settleMs ?? 200);
  }

  /**
   * A watch follows the folder it began on: once that folder is deleted, moved away or unmounted, the
   * watch hears nothing of a folder made again at its path. Such a folder is watched afresh, or polled.
   */
  private async rewatch(folders: ReadonlySet<string>): Promise<void> {
    for (const folder of folders) {
      const current = this.watched.get(folder);
      if (!current || current.identity === null) continue;
      if ((await identityOf(folder)) === current.identity) continue;
      current.close();
      this.watched.delete(folder);
      this.watch(folder);
    }
  }

  /** The folders that cannot be watched are looked at; each is watched again once it can be. */
  private poll(): void {
    const folders = new Set(this.unwatched);
    for (const folder of folders) this.watch(folder);
    // Drives are looked at even with nothing to check: saving that waits for one goes on once it is back.
    void this.run(this.idsIn(folders));
  }

  private idsIn(folders: ReadonlySet<string>): string[] {
    const ids: string[] = [];
    const { copiesUnder } = this.deps;
    const among = copiesUnder ? [...folders].flatMap((folder) => [...copiesUnder(folder)]) : this.deps.copies();
    for (const copy of among)
      if (copy.savedPath && isCopy(copy.state) && folders.has(dirname(copy.savedPath))) ids.push(copy.id);
    return ids;
  }

  /** One check at a time; the folders to watch are brought up to date after it. */
  private run(ids: readonly string[] | undefined, folders: ReadonlySet<string> = new Set()): Promise<unknown> {
    const next = this.checking.then(async () => {
      if (this.stopped) return;
      try {
        await this.rewatch(folders);
        await this.deps.check(ids);
      } catch (error) {
        this.deps.log.warn('saved copies not checked', { error });
      }
      this.follow();
    });
    this.checking = next;
    return next;
  }
}
