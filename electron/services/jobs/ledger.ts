import type { JobRecord } from '../../common/bridge/jobs';
import { RECENT_CHARGES } from '../../common/jobs/cost-model';
import { pickInScope, type JobScope } from './job-scope';
import type { ChargeFacts } from './paid-gate';

/** What the spending gate counts of a job, read without its record (the database's columns). */
export type ChargeRow = ChargeFacts & { id: string };

/**
 * Where job records live (on disk: the folder's records database, records/sqlite-ledger.ts). `put`
 * resolves once the record is durably on disk: the engine awaits it before each paid create and relies
 * on finding the record after a crash.
 */
export interface LedgerStorage {
  /** Every job (a reader's snapshot, tests); a start reads `find` and `charges` instead. */
  loadAll(): JobRecord[];
  /** The jobs in a scope, newest first: from the indexes, not from every job. */
  find(scope: JobScope): JobRecord[];
  /**
   * What the day's limit and the price guide need of the jobs: every job created since `from`, and each
   * connection's latest real charges of each kind, however old (RECENT_CHARGES of them).
   */
  charges(from: number): ChargeRow[];
  put(record: JobRecord): Promise<void>;
  remove(id: string): Promise<void>;
  /** Settles when every write started so far is on disk. */
  flush(): Promise<void>;
}

/** `charges` over records in hand: the same answer the database gives from its columns. */
export function chargesOf(records: readonly JobRecord[], from: number): ChargeRow[] {
  const picked = new Map<string, ChargeRow>();
  const latest = new Map<string, JobRecord[]>();
  for (const r of [...records].sort((a, b) => b.createdAt - a.createdAt)) {
    if (r.createdAt >= from) picked.set(r.id, rowOf(r));
    if (r.chargedCredits === null || r.chargeSource === 'estimate' || r.phase === 'failed') continue;
    const key = `${r.connectionId}\n${r.kind}`;
    const list = latest.get(key) ?? [];
    if (list.length < RECENT_CHARGES) latest.set(key, [...list, r]);
  }
  for (const list of latest.values()) for (const r of list) picked.set(r.id, rowOf(r));
  return [...picked.values()];
}

function rowOf(r: JobRecord): ChargeRow {
  const { id, connectionId, kind, createdAt, phase, remoteId, chargedCredits, chargeSource, costEstimate } = r;
  return { id, connectionId, kind, createdAt, phase, remoteId, chargedCredits, chargeSource, costEstimate };
}

export class MemoryLedgerStorage implements LedgerStorage {
  readonly records = new Map<string, JobRecord>();
  writes = 0;
  loadAll(): JobRecord[] {
    return [...this.records.values()].map((r) => structuredClone(r));
  }
  find(scope: JobScope): JobRecord[] {
    return pickInScope(scope, this.records.values()).map((r) => structuredClone(r));
  }
  charges(from: number): ChargeRow[] {
    return chargesOf([...this.records.values()], from);
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
