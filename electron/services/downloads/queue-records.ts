import type { DownloadEntry } from '../../common/bridge/downloads';

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
  /** The queue as last recorded (once, at the start). */
  load(): DownloadEntry[];
  /**
   * Records these entries as they are now, after the writes under way. `durable: false` survives the
   * process being killed, not a power cut.
   */
  save(changed?: Iterable<DownloadEntry>, options?: { durable?: boolean }): Promise<void>;
  /** Settles once every write asked for so far is done. */
  written(): Promise<void>;
  close(): Promise<void>;
  /** The copies recorded at this path (saved, missing or changed): a scan, asked only for a file already there. */
  savedAt(path: string): DownloadEntry[];
  /** The entries that wait in the record and are not loaded (see QueueBacklog). */
  readonly backlog: QueueBacklog;
}

/** The recorded entries as a reader beside the queue's owner finds them (nothing is written). */
export interface QueueReader {
  /** Every entry of a queue as last recorded. */
  entries(queue: QueueName): Promise<DownloadEntry[]>;
  /** The entries of a queue saved from this link (a lookup, not a read of the queue), newest first. */
  savedFrom(url: string, queue: QueueName): Promise<DownloadEntry[]>;
  /** The entries of a queue for these jobs (a lookup by job, not a read of the queue), in the queue's order. */
  ofJobs(jobIds: readonly string[], queue: QueueName): Promise<DownloadEntry[]>;
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
