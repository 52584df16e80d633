import { ref, shallowRef } from 'vue';
import type { JobPage, JobView } from '@common/bridge';
import { MAX_PAGE_JOBS, type JobFilter, type JobPageQuery } from '@common/bridge/job-pages';

/** The fields of the host's filter a question may use: the ones a live job is also checked against here. */
export type LiveJobFilter = Pick<
  JobFilter,
  'kinds' | 'phases' | 'projectId' | 'connectionId' | 'createdFrom' | 'createdBefore' | 'ids'
>;

/**
 * What one view shows of the ledger: the newest jobs a filter leaves, up to `limit`. `keep` says what the
 * host's filter cannot (a purpose, a link that still works): the pages are read, newest first, until
 * `limit` jobs are kept or MOST_READ were read.
 */
export interface JobQuerySpec {
  /** Names the question (with its `keep`): views asking the same name, filter and limit share one answer. */
  name: string;
  filter: LiveJobFilter;
  limit: number;
  keep?: (job: JobView) => boolean;
}

/** The most jobs a question with `keep` reads before it shows what it kept (a bounded answer on any ledger). */
export const MOST_READ = 2_000;
/** A page of a question with `keep`: a few of them usually find its jobs. */
const KEEP_PAGE = 200;
/** A job left a question that may hold more than it shows: asked again at most this often. */
export const ASK_AGAIN_MS = 500;

export const questionKey = (spec: JobQuerySpec): string => `${spec.name}|${JSON.stringify(spec.filter)}|${spec.limit}`;

/** Does the job pass the filter, as the host's database answers it (electron/services/records/job-filter-sql.ts). */
export function matchesFilter(job: JobView, filter: LiveJobFilter): boolean {
  if (filter.kinds?.length && !filter.kinds.includes(job.kind)) return false;
  if (filter.phases?.length && !filter.phases.includes(job.phase)) return false;
  if (filter.projectId !== undefined && job.projectId !== filter.projectId) return false;
  if (filter.connectionId !== undefined && job.connectionId !== filter.connectionId) return false;
  if (filter.createdFrom !== undefined && job.createdAt < filter.createdFrom) return false;
  if (filter.createdBefore !== undefined && job.createdAt >= filter.createdBefore) return false;
  if (filter.ids !== undefined && !filter.ids.includes(job.id)) return false;
  return true;
}

/** The host's order: newest first, ties by id (descending). Negative: `a` comes first. */
export const newestFirst = (a: JobView, b: JobView): number =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One question's answer, kept current: the page the host answered, then each job the store hears of
 * (a change, a submission, a removal) put in its place, left out or taken out. A job that leaves an
 * answer holding fewer than the host has makes the question be asked again (another takes its place).
 */
export class LiveJobQuery {
  readonly rows = shallowRef<readonly JobView[]>([]);
  readonly loaded = ref(false);
  readonly error = ref<string | null>(null);
  /** The rows are every job the host holds for the question: a job after the last may join them. */
  private complete = false;
  private loading: Promise<void> | null = null;
  private stale = false;
  private reading = false;
  /** What was heard while a page was being answered, put over the page once it comes (null: removed). */
  private heard: Map<string, JobView | null> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    readonly spec: JobQuerySpec,
    private readonly ask: (query: JobPageQuery) => Promise<JobPage>,
  ) {}

  private wanted(job: JobView): boolean {
    return matchesFilter(job, this.spec.filter) && (this.spec.keep?.(job) ?? true);
  }

  /** Asks the host (again); a call while one is answered asks once more after it. */
  load(): Promise<void> {
    if (this.loading) {
      this.stale = true;
      return this.loading;
    }
    this.heard = new Map();
    this.reading = true;
    this.loading = this.read()
      .then(({ rows, complete }) => {
        if (this.disposed) return;
        const heard = this.heard ?? new Map<string, JobView | null>();
        this.heard = null;
        this.reading = false;
        this.rows.value = rows;
        this.complete = complete;
        for (const [id, job] of heard)
          if (job) this.offer(job);
          else this.drop(id);
        this.error.value = null;
      })
      .catch((error) => void (this.error.value = describe(error)))
      .finally(() => {
        this.heard = null;
        this.reading = false;
        this.loaded.value = true;
        this.loading = null;
        if (this.stale && !this.disposed) {
          this.stale = false;
          void this.load();
        }
      });
    return this.loading;
  }

  private async read(): Promise<{ rows: JobView[]; complete: boolean }> {
    const { filter, limit, keep } = this.spec;
    const size = keep ? Math.min(MAX_PAGE_JOBS, Math.max(limit, KEEP_PAGE)) : limit;
    const kept: JobView[] = [];
    let read = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.ask({ filter, limit: size, ...(after ? { after } : {}) });
      read += page.jobs.length;
      for (const job of page.jobs) if (this.wanted(job)) kept.push(job);
      const last = page.next === null || page.jobs.length < size;
      if (kept.length >= limit || last || read >= MOST_READ)
        return { rows: kept.slice(0, limit), complete: last && kept.length <= limit };
      after = page.next ?? undefined;
    }
  }

  /** A job as it is now (changed, or just sent): shown, moved or left out. */
  offer(job: JobView): void {
    this.heard?.set(job.id, job);
    const rows = this.rows.value;
    const at = rows.findIndex((r) => r.id === job.id);
    if (!this.wanted(job)) {
      if (at >= 0) this.takeOut(at);
      return;
    }
    // A job keeps its creation time and id, so it keeps its place.
    if (at >= 0) {
      const next = [...rows];
      next[at] = job;
      this.rows.value = next;
      return;
    }
    const place = rows.findIndex((r) => newestFirst(job, r) < 0);
    // After the last row of an answer that holds less than the host has: others may come between.
    if (place < 0 && !this.complete) return;
    const next = [...rows];
    next.splice(place < 0 ? next.length : place, 0, job);
    if (next.length > this.spec.limit) {
      next.length = this.spec.limit;
      this.complete = false;
    }
    this.rows.value = next;
  }

  drop(id: string): void {
    this.heard?.set(id, null);
    const at = this.rows.value.findIndex((r) => r.id === id);
    if (at >= 0) this.takeOut(at);
  }

  private takeOut(at: number): void {
    this.rows.value = this.rows.value.filter((_, i) => i !== at);
    // While a page is being answered, what was heard is put over it once it comes (and asked again then).
    if (!this.complete && !this.reading) this.askAgainSoon();
  }

  private askAgainSoon(): void {
    if (this.timer !== undefined || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.load();
    }, ASK_AGAIN_MS);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
