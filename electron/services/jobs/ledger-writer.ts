import type { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import { errorText } from './engine-helpers';
import type { LedgerStorage } from './ledger';
import type { Timers } from './scheduler';

/** The first retry of a ledger write that failed after the service accepted a create; it doubles up to the cap. */
const REWRITE_FIRST_MS = 1_000;
const REWRITE_CAP_MS = 60_000;

export interface LedgerWriterDeps {
  storage: LedgerStorage;
  timers: Timers;
  log?: Logger;
  /** Tells the user a job the service has could not be written down. */
  warn?(title: string, body: string): void;
  /** The job's latest state in memory (a retry writes whatever is latest then). */
  latest(id: string): JobRecord | undefined;
}

/**
 * Writes job records to the ledger. Once the service knows a job, a write that fails does not end it:
 * the latest state is written again with a doubling wait until it lands, and the user is told once.
 */
export class LedgerWriter {
  /** Jobs whose latest state is only in memory (a write failed), with the retry armed for each. */
  private readonly unwritten = new Map<string, unknown>();
  private readonly warned = new Set<string>();

  constructor(private readonly deps: LedgerWriterDeps) {}

  /** Writes the job's latest state; settles when it is on disk (or rejects, with a retry armed). */
  write(record: JobRecord, failures = 0): Promise<void> {
    const pending = this.unwritten.get(record.id);
    if (pending !== undefined) this.deps.timers.clearTimeout(pending);
    this.unwritten.delete(record.id);
    const saved = this.deps.storage.put(record);
    saved.catch((error: unknown) => {
      const latest = this.deps.latest(record.id);
      // Another write already took over (or the job is gone): its own outcome counts.
      if (latest !== record || this.unwritten.has(record.id)) return;
      this.deps.log?.error('job ledger write failed', { job: record.id, error: errorText(error), retries: failures });
      // Before the service knew the job, nothing was sent for it, and submit() says so itself.
      if (latest.remoteId === null) return;
      if (!this.warned.has(record.id)) {
        this.warned.add(record.id);
        this.deps.warn?.(
          'A job could not be recorded',
          `The service has "${latest.summary}", but the studio could not write it to the job list on disk (${errorText(error)}). Do not send it again: the studio keeps following it and keeps trying to save it. Free disk space or check the data folder.`,
        );
      }
      const delay = Math.min(REWRITE_CAP_MS, REWRITE_FIRST_MS * 2 ** failures);
      this.unwritten.set(
        record.id,
        this.deps.timers.setTimeout(() => {
          this.unwritten.delete(record.id);
          const current = this.deps.latest(record.id);
          if (current) void this.write(current, failures + 1).catch(() => undefined);
        }, delay),
      );
    });
    return saved;
  }

  /** Disarms the retries and makes one last try for what is only in memory (the ledger's flush waits for it). */
  stop(): void {
    for (const [id, handle] of this.unwritten) {
      this.deps.timers.clearTimeout(handle);
      const record = this.deps.latest(id);
      if (record) this.deps.storage.put(record).catch(() => undefined);
    }
    this.unwritten.clear();
  }
}
