import { sep } from 'node:path';
import { type CopyOrigin, type DownloadEntry, type DownloadView } from '../../common/bridge/downloads';
import { copyStateOf } from '../../common/bridge/download-words';
import type { RecordedDrive } from './drives';
import type { HeldDownloads } from './held-downloads';
import { yieldTurn } from './queue-window';
import { savedCopyAmong } from './queue-file';
import { FINISHED } from './queue-names';
import type { QueueLookups } from './queue-records';
import type { StateCounts } from './queue-totals';

/** Copies a page of the copy walk reads (see copies()). */
const COPIES_A_PAGE = 500;
/** Copies' folders and drives a page of drives() reads (a few columns, no entry parsed). */
const DRIVES_A_PAGE = 5_000;

const UNDER_WAY: ReadonlySet<string> = new Set(['queued', 'downloading', 'paused']);

/**
 * Every entry of the queue as the manager answers for it: those it holds (the downloads under way, and
 * an ended one until its change is written) laid over what the record's indexed questions find. The one
 * held is the newer, so it replaces the recorded one of the same id; one held and not recorded yet (a
 * download queued this turn) is added. A million saved copies stay in the table.
 */
export class RecordedDownloads {
  constructor(
    private readonly held: HeldDownloads,
    private readonly record: QueueLookups,
    private readonly view: (entry: DownloadEntry) => DownloadView,
  ) {}

  /** The entry held, else the recorded one (not held by this: see DownloadManager.require). */
  entry(id: string): DownloadEntry | undefined {
    return this.held.get(id) ?? this.record.get(id) ?? undefined;
  }

  /** The entry by its id, held or recorded, viewed, or undefined. */
  find(id: string): DownloadView | undefined {
    const entry = this.entry(id);
    return entry && this.view(entry);
  }

  /** Every entry for a job, newest first. */
  forJob(jobId: string): DownloadView[] {
    return this.ofJobs([jobId])[0];
  }

  /** The entries of each of these jobs (one indexed question for all), each job's newest first. */
  ofJobs(jobIds: readonly string[]): DownloadView[][] {
    return this.entriesOfJobs(jobIds).map((entries) => entries.map(this.view));
  }

  /** Each of these jobs' entries by job, newest first: one indexed question for all of them, not one a job. */
  byJob(jobIds: readonly string[]): Map<string, DownloadView[]> {
    const ids = [...new Set(jobIds)];
    const each = this.ofJobs(ids);
    return new Map(ids.map((id, index) => [id, each[index]]));
  }

  /** The download that keeps this job's copy under this name in this folder (the name asked for). */
  copyAt(jobId: string, folder: string, name: string): DownloadView | undefined {
    return copyAmong(this.forJob(jobId), folder, name);
  }

  /** This link's newest saved copy still on disk at its size, or null: the media cache reads it after expiry. */
  savedCopyOf(url: string): Promise<string | null> {
    return savedCopyAmong(this.savedFrom(url), url);
  }

  /** The jobs with a download no longer kept (missing, changed, failed, cancelled): one question of the record. */
  lostJobs(): string[] {
    const held = [...this.held.values()].filter((e) => FINISHED.has(e.state) && e.state !== 'saved');
    return [...new Set([...this.record.lostJobs(), ...held.map((e) => e.jobId)])];
  }

  /** These links' entries (a page of a campaign's rows), the held laid over the recorded. */
  ofLinks(urls: readonly string[]): DownloadView[] {
    const wanted = new Set(urls);
    const held = [...this.held.values()].filter((e) => wanted.has(e.url));
    return this.laid(this.record.ofLinks(urls), held).map(this.view);
  }

  /**
   * The links whose copies of this origin are lost: one missing or changed, and none intact nor on its
   * way (copyStateOf). The record names the few links with a lost copy; their entries settle the rest.
   */
  lostLinks(origin: CopyOrigin): Set<string> {
    const held = [...this.held.values()].filter(
      (e) => e.origin === origin && (e.state === 'missing' || e.state === 'changed'),
    );
    const candidates = [...new Set([...this.record.lostLinks(origin), ...held.map((e) => e.url)])];
    const byLink = new Map<string, DownloadEntry[]>();
    for (const entry of this.ofLinks(candidates))
      if (entry.origin === origin) byLink.set(entry.url, [...(byLink.get(entry.url) ?? []), entry]);
    const lost = (entries: DownloadEntry[]) => ['missing', 'changed'].includes(copyStateOf(entries));
    return new Set([...byLink].filter(([, entries]) => lost(entries)).map(([url]) => url));
  }

  private entriesOfJobs(jobIds: readonly string[]): DownloadEntry[][] {
    const byJob = new Map(jobIds.map((jobId) => [jobId, new Map<string, DownloadEntry>()]));
    for (const entry of this.record.ofJobs([...byJob.keys()])) byJob.get(entry.jobId)?.set(entry.id, entry);
    return [...byJob].map(([jobId, entries]) => {
      for (const entry of this.held.ofJob(jobId)) entries.set(entry.id, entry);
      return [...entries.values()].sort((a, b) => b.createdAt - a.createdAt);
    });
  }

  /** The entries whose copy was saved at this path. */
  savedAt(path: string): DownloadView[] {
    return this.laid(this.record.savedAt(path), this.held.savedAt(path)).map(this.view);
  }

  /** The copies saved from this link. */
  private savedFrom(url: string): DownloadEntry[] {
    const held = [...this.held.values()].filter((e) => e.url === url);
    return this.laid(this.record.savedFrom(url), held).filter((e) => e.state === 'saved');
  }

  /**
   * How many downloads of one run (its batch id) are in each state. While one of them is under way the
   * run is not over, and what the manager holds says so without a question; then the record counts them
   * all, its backlog's (never started) counted as the queued or paused they are.
   */
  countRun(batchId: string): StateCounts {
    const states = new Map<string, string>();
    const held = [...this.held.values()].filter((e) => e.batchId === batchId);
    if (!held.some((e) => UNDER_WAY.has(e.state)))
      for (const { id, state } of this.record.ofBatch(batchId)) states.set(id, waitingAs(state));
    for (const entry of held) states.set(entry.id, entry.state);
    const counts: StateCounts = {};
    for (const state of states.values()) {
      const key = state as DownloadEntry['state'];
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  /**
   * Every copy (saved, missing, changed), a page of the record at a time by its rows' order (the page
   * after the last row read, whatever changed meanwhile), then those held and not recorded yet. Only a
   * page is in memory at once.
   */
  *copies(): Generator<DownloadEntry> {
    const isCopy = (e: DownloadEntry) => e.state === 'saved' || e.state === 'missing' || e.state === 'changed';
    // Taken first: a copy held now may be written, and so also in a page, before the walk ends.
    const fresh = [...this.held.values()].filter(isCopy);
    const skip = new Set(fresh.map((e) => e.id));
    for (let after = 0; ;) {
      const page = this.record.copies(after, COPIES_A_PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1].row;
      for (const { entry } of page) if (!skip.has(entry.id)) yield this.held.get(entry.id) ?? entry;
    }
    yield* fresh;
  }

  /**
   * The folder and drive of every copy recorded, a page at a time with the thread given back between
   * pages: a third of a million copies took 0.9 s of the host's thread in one question.
   */
  async *drives(): AsyncGenerator<RecordedDrive> {
    for (let after = 0; ; await yieldTurn()) {
      const page = this.record.drives(after, DRIVES_A_PAGE);
      if (page.length === 0) return;
      after = page[page.length - 1].row;
      yield* page;
    }
  }

  /** The copies saved in this folder or below it (an indexed question), laid under those held. */
  copiesUnder(folder: string): DownloadEntry[] {
    const under = (e: DownloadEntry) => e.savedPath !== null && e.savedPath.startsWith(`${folder}${sep}`);
    return this.laid(this.record.copiesUnder(folder), [...this.held.values()].filter(under));
  }

  /** The copies saved in these folders (not below them), each folder's by its path's prefix. */
  copiesIn(folders: readonly string[]): DownloadEntry[] {
    return folders.flatMap((folder) => this.copiesUnder(folder).filter((e) => e.folder === folder));
  }

  private laid(recorded: readonly DownloadEntry[], held: readonly DownloadEntry[]): DownloadEntry[] {
    const out = new Map(recorded.map((e) => [e.id, this.held.get(e.id) ?? e]));
    for (const entry of held) out.set(entry.id, entry);
    return [...out.values()];
  }
}

/** Among one job's entries (newest first), the newest that keeps its copy under this name in this folder. */
export function copyAmong<E extends DownloadEntry>(ofJob: readonly E[], folder: string, name: string): E | undefined {
  const holds = (e: DownloadEntry) => e.state !== 'cancelled' && e.state !== 'changed';
  return ofJob.find((e) => e.folder === folder && (e.requestedName ?? e.relativeName) === name && holds(e));
}

/** A backlog row's state column as the entry's state (see stateColumn). */
function waitingAs(state: string): string {
  if (state === 'backlog') return 'queued';
  return state === 'backlog-paused' ? 'paused' : state;
}
