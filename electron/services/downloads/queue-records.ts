import type { CopyOrigin, DownloadEntry } from '../../common/bridge/downloads';

/**
 * The two queues a data folder may hold: 'studio', the one every host writes today, and 'cli', the
 * command line's own queue of earlier versions, read until its copies are adopted into the studio's.
 */
export type QueueName = 'studio' | 'cli';

/**
 * Where the download queue is kept (the folder's records database; a plain file in unit tests). A
 * change is recorded by the entries it changed, never the whole queue: the queue is the record of
 * every copy saved, so it grows with the work.
 */
export interface QueueRecord {
  /** The downloads under way as last recorded (queued, running, paused; not the backlog), once, at the start. */
  load(): DownloadEntry[];
  /**
   * Records these entries as they are now, after the writes under way. `durable: false` survives the
   * process being killed, not a power cut.
   */
  save(changed?: Iterable<DownloadEntry>, options?: { durable?: boolean }): Promise<void>;
  /** Settles once every write asked for so far is done. */
  written(): Promise<void>;
  close(): Promise<void>;
  /** Whether this entry's last change is not in the record (a commit failed and kept it, or none is written here). */
  unwritten(id: string): boolean;
  /** The entries that wait in the record and are not loaded (see QueueBacklog). */
  readonly backlog: QueueBacklog;
  /** The entries recorded and not held (ended ones), asked for as needed (see QueueLookups). */
  readonly lookups: QueueLookups;
}

/**
 * The studio's queue's entries as committed, each question one indexed statement: the manager holds
 * only the downloads under way and lays what it holds over these answers (its own is the newer).
 * None of them answers the backlog's entries (QueueBacklog does).
 */
export interface QueueLookups {
  get(id: string): DownloadEntry | null;
  /** These jobs' entries, in the queue's order. */
  ofJobs(jobIds: readonly string[]): DownloadEntry[];
  /** The copies saved from this link, newest first. */
  savedFrom(url: string): DownloadEntry[];
  /** The entries whose copy was saved at this path. */
  savedAt(path: string): DownloadEntry[];
  /** The state of each entry of one download run (its batch id). */
  ofBatch(batchId: string): { id: string; state: string }[];
  /** Up to `limit` copies (saved, missing, changed) after the row `afterRow` (0: from the first), in row order. */
  copies(afterRow: number, limit: number): { row: number; entry: DownloadEntry }[];
  /** The folder and drive (device, volume) of up to `limit` copies after the row `afterRow`, in row order. */
  drives(
    afterRow: number,
    limit: number,
  ): { row: number; folder: string; folderDev: number; folderVolume: string | null }[];
  /** The jobs with an entry no longer kept (missing, changed, failed or cancelled). */
  lostJobs(): string[];
  /** These links' entries (a page of a campaign's rows), in the queue's order. */
  ofLinks(urls: readonly string[]): DownloadEntry[];
  /** The links with a copy of this origin missing or changed (whether or not another is intact). */
  lostLinks(origin: CopyOrigin): string[];
  /** The copies saved in this folder or below it (by the saved path's prefix). */
  copiesUnder(folder: string): DownloadEntry[];
}

/** The recorded entries as a reader beside the queue's owner finds them (nothing is written). */
export interface QueueReader {
  /** Every entry of a queue as last recorded. */
  entries(queue: QueueName): Promise<DownloadEntry[]>;
  /** The entries of a queue saved from this link (a lookup, not a read of the queue), newest first. */
  savedFrom(url: string, queue: QueueName): Promise<DownloadEntry[]>;
  /** The entries of a queue for these jobs (a lookup by job, not a read of the queue), in the queue's order. */
  ofJobs(jobIds: readonly string[], queue: QueueName): Promise<DownloadEntry[]>;
  /** The entries of a queue fetching or saved from these links (a lookup by link), in the queue's order. */
  ofLinks(urls: readonly string[], queue: QueueName): Promise<DownloadEntry[]>;
}

/** A queue's record, its owner's store and the reader of both queues. */
export interface DownloadRecords {
  store: QueueRecord;
  reader: QueueReader;
}

/**
 * The downloads of a large selection waiting in the record, not in memory (entries not named yet: see
 * DownloadEntry.unnamed). Each call is one statement or transaction; a caller of `move` or `drop` goes
 * on, a few thousand rows at a time, until it answers 0.
 */
export interface QueueBacklog {
  /**
   * Records these entries (queued, unnamed) in one transaction, flushed unless `flushed` is false: then
   * it survives the process being killed, and reaches the disk with the next flushed commit at the
   * latest (a backlog entry's intake is one, before any byte of it is fetched).
   */
  add(entries: readonly DownloadEntry[], options?: { flushed?: boolean }): void;
  /** The next queued ones after the row `afterRow` (0: from the first), in the order queued. */
  next(afterRow: number, limit: number): { row: number; entry: DownloadEntry }[];
  counts(): { queued: number; paused: number };
  /** One waiting entry by its id, or null. */
  get(id: string): DownloadEntry | null;
  /** The waiting entries of these jobs. */
  ofJobs(jobIds: readonly string[]): DownloadEntry[];
  /** Pauses (or queues again) up to `limit` waiting entries; answers how many. */
  move(paused: boolean, at: number, limit: number): number;
  /** Queues again one entry paused in the backlog; answers whether it was. */
  requeue(id: string, at: number): boolean;
  /** Forgets up to `limit` waiting entries (cancelled: they never held a file); answers how many. */
  drop(limit: number): number;
}
