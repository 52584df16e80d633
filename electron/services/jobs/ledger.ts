import type { JobRecord } from '../../common/bridge/jobs';

/**
 * Where job records live (on disk: the folder's records database, records/sqlite-ledger.ts). `put`
 * resolves once the record is durably on disk: the engine awaits it before each paid create and relies
 * on finding the record after a crash.
 */
export interface LedgerStorage {
  loadAll(): JobRecord[];
  put(record: JobRecord): Promise<void>;
  remove(id: string): Promise<void>;
  /** Settles when every write started so far is on disk. */
  flush(): Promise<void>;
}

export class MemoryLedgerStorage implements LedgerStorage {
  readonly records = new Map<string, JobRecord>();
  writes = 0;
  loadAll(): JobRecord[] {
    return [...this.records.values()].map((r) => structuredClone(r));
  }
  async put(record: JobRecord): Promise<void> {
    this.writes += 1;
    this.records.set(record.id, structuredClone(record));
  }
  async remove(id: string): Promise<void> {
    this.records.delete(id);
  }
  async flush(): Promise<void> {}
}
