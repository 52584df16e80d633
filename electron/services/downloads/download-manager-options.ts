import type { DownloadEntry, DownloadTotals, DownloadView } from '../../common/bridge/downloads';
import type { Logger } from '../host/types';
import type { RetryPolicy } from './transfer-retries';
import type { StatDevice } from './drives';
import type { QueueRecord } from './queue-records';

// What the download manager is given: its record, how it fetches and checks, its settings and its outlets.

/** The retry policy's fields (attempts, backoff, sleep, random) say how a failed transfer is tried again. */
export interface DownloadManagerOptions extends RetryPolicy {
  /** Where the queue is recorded (the folder's records database); read at construction. */
  store: QueueRecord;
  /**
   * Whether downloads queued when the queue was last written start at construction (default true: the
   * studio goes on with them). A command line leaves them to the studio; it starts only its own.
   */
  resumeQueued?: boolean;
  fetch?: typeof globalThis.fetch;
  /** Checks a finished `.part` is real media (ffprobe); absent: length checks only. */
  verify?(path: string): Promise<void>;
  /** Called before each download starts: makes sure whoever serves its link is up (the built-in sandbox). */
  prepare?(entry: DownloadEntry): Promise<void>;
  /** How many files download at once (a setting, read when work starts). */
  concurrency?: () => number;
  /** Bytes per second for all transfers together (a setting, read as bytes arrive); null: no limit. */
  speedLimit?: () => number | null;
  /** How a folder's device is read (drives.ts); tests put a folder on another device without root. */
  statDevice?: StatDevice;
  now?: () => number;
  log?: Logger;
  onChange?(view: DownloadView): void;
  onTotals?(totals: DownloadTotals): void;
  /** A download ended (saved, failed, cancelled). */
  onEnd?(view: DownloadView): void;
}
