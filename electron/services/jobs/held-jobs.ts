import type { JobRecord } from '../../common/bridge/jobs';
import { isActivePhase } from '../../common/jobs/phases';
import { rowOfRecord, runOf } from './job-scope';

const rowKey = (runId: string, row: number): string => `${runId}\u0000${row}`;

/**
 * The job engine's records in memory, by id, and also by the run and row they are a step of: a row's
 * step asks for its few jobs at every turn, and looking through every job held (an in-process campaign
 * holds all of its own) made each step slower as the run went on. A Map, so everything that reads the
 * engine's records reads them as before; only `set`, `delete` and `clear` also keep the indexes.
 */
export class HeldJobs extends Map<string, JobRecord> {
  private readonly byRun = new Map<string, Set<string>>();
  private readonly byRow = new Map<string, Set<string>>();
  /**
   * Jobs by their result link, whatever their phase (a scope by link asks for completed ones): a copy
   * saved from a link finds its job without a look through all.
   */
  private readonly byLink = new Map<string, Set<string>>();
  /** The jobs under way: the overall progress is summed over them at every change, not over every job held. */
  private readonly activeIds = new Set<string>();

  override set(id: string, record: JobRecord): this {
    const before = super.get(id);
    if (before) this.index(id, before, remove);
    super.set(id, record);
    this.index(id, record, add);
    return this;
  }

  override delete(id: string): boolean {
    const before = super.get(id);
    if (before) this.index(id, before, remove);
    return super.delete(id);
  }

  override clear(): void {
    this.byRun.clear();
    this.byRow.clear();
    this.byLink.clear();
    this.activeIds.clear();
    super.clear();
  }

  /** The records held of one run, or of one of its rows. */
  *ofRun(runId: string, row?: number): Generator<JobRecord> {
    const ids = row === undefined ? this.byRun.get(runId) : this.byRow.get(rowKey(runId, row));
    if (!ids) return;
    for (const id of ids) {
      const record = super.get(id);
      if (record) yield record;
    }
  }

  /** The records held whose result is at `url`. */
  *withLink(url: string): Generator<JobRecord> {
    for (const id of this.byLink.get(url) ?? []) {
      const record = super.get(id);
      if (record) yield record;
    }
  }

  /** The records held of jobs under way. */
  *active(): Generator<JobRecord> {
    for (const id of this.activeIds) {
      const record = super.get(id);
      if (record) yield record;
    }
  }

  /** Adds the job to its link's, run's and row's index and to those under way, or removes it (`change`). */
  private index(id: string, record: JobRecord, change: typeof add | typeof remove): void {
    if (isActivePhase(record.phase)) {
      if (change === add) this.activeIds.add(id);
      else this.activeIds.delete(id);
    }
    if (record.resultUrl) change(this.byLink, record.resultUrl, id);
    const runId = runOf(record);
    if (runId === null) return;
    change(this.byRun, runId, id);
    const row = rowOfRecord(record);
    if (row !== null) change(this.byRow, rowKey(runId, row), id);
  }
}

function add(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  if (ids) ids.add(id);
  else index.set(key, new Set([id]));
}

function remove(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  ids?.delete(id);
  if (ids?.size === 0) index.delete(key);
}
