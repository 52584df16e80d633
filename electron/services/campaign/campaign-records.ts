import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import type { CampaignStore } from './campaign-store';

/**
 * The campaign records a runner works on, held in memory over the store: a change is seen by every
 * reader at once (before anything awaits) and written down after, and waiters are woken at every
 * change. Kept apart from the runner, which decides what to send; this only keeps what was decided.
 */
export class CampaignRecords {
  private readonly records = new Map<string, CampaignRecord>();
  /** Checks run at every change of a record (run() waiting for its campaign). */
  private readonly waiters = new Set<() => void>();
  private stopped = false;

  constructor(
    private readonly store: CampaignStore,
    private readonly onChange?: (record: CampaignRecord) => void,
  ) {}

  /** Every campaign, newest first. */
  async list(): Promise<CampaignRecord[]> {
    for (const record of await this.store.list()) if (!this.records.has(record.id)) this.records.set(record.id, record);
    return [...this.records.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  async get(id: string): Promise<CampaignRecord | null> {
    const known = this.records.get(id);
    if (known) return known;
    const stored = await this.store.get(id);
    if (stored) this.records.set(id, stored);
    return stored;
  }

  async require(id: string): Promise<CampaignRecord> {
    const record = await this.get(id);
    if (!record) throw new Error(`No campaign "${id}"`);
    return record;
  }

  /** The campaign as it is in memory now, without asking the store (undefined when not looked up yet). */
  inMemory(id: string): CampaignRecord | undefined {
    return this.records.get(id);
  }

  setRow(id: string, row: number, change: (row: CampaignRowRecord) => CampaignRowRecord): Promise<void> {
    return this.update(id, (r) => ({ ...r, rows: r.rows.map((x) => (x.row === row ? change(x) : x)) }));
  }

  /**
   * Applies a change in memory at once, before anything awaits (every reader sees it), and resolves
   * once it is written down. The campaign is in memory already: every caller looked it up first.
   */
  update(id: string, change: (record: CampaignRecord) => CampaignRecord): Promise<void> {
    const record = this.records.get(id);
    if (!record) return Promise.reject(new Error(`No campaign "${id}"`));
    return this.save(change(record));
  }

  /** After stop() nothing is written: a stopped runner is a process that has gone, and another may own the records. */
  save(record: CampaignRecord): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.records.set(record.id, record);
    this.onChange?.(record);
    this.wake();
    return this.store.put(record);
  }

  /** Settles once every change of the records so far is on disk. */
  flush(): Promise<void> {
    return this.store.flush();
  }

  /** Writes nothing more, and wakes every waiter so it can see that the runner has stopped. */
  stop(): void {
    this.stopped = true;
    this.wake();
  }

  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves once `done` holds for the campaign, checked again at every change of its record. */
  until(id: string, done: (record: CampaignRecord) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        const record = this.records.get(id);
        if (!record || done(record)) {
          this.waiters.delete(check);
          resolve();
        }
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** A campaign cancelled: its rows not sent yet never are. */
export function pendingCancelled(record: CampaignRecord): CampaignRecord {
  return {
    ...record,
    rows: record.rows.map((row) =>
      row.state === 'pending' ? { ...row, state: 'cancelled', problems: ['cancelled before it was sent'] } : row,
    ),
  };
}

/** A row made again: its next take starts from nothing (the earlier take's jobs stay in the ledger). */
export function rowRetried(record: CampaignRecord, row: number): CampaignRecord {
  return {
    ...record,
    state: record.state === 'cancelled' ? 'cancelled' : 'running',
    rows: record.rows.map((x) =>
      x.row === row
        ? {
            ...x,
            state: 'pending',
            problems: [],
            take: x.take + 1,
            voiceovers: {},
            resultUrl: null,
            expiresAt: null,
            savedAt: null,
          }
        : x,
    ),
  };
}
