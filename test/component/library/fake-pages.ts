import { costGroups, totalCost, type DownloadView, type JobView } from '@common/bridge';
import type { JobFilter, JobPageQuery, JobSelection, JobTotals } from '@common/bridge/job-pages';

type Handler = (...args: unknown[]) => unknown;

/**
 * The host's jobs.page and jobs.totals over a test's list of jobs, answered as the database answers
 * them (filter, order, offset, sums), and following the jobs.changed / jobs.removed events a test
 * pushes. Saved copies are the downloads.ofJobs handler's saved entries, as the host takes them.
 */
export function fakePages(handlers: Record<string, Handler>) {
  const jobs = new Map<string, JobView>();
  let loaded = false;
  const load = async () => {
    if (loaded) return;
    loaded = true;
    for (const job of ((await handlers['jobs.list']?.()) ?? []) as JobView[]) jobs.set(job.id, job);
  };
  // The host's record of copies: the list, as the downloads.changed events a test pushes change it.
  const changedCopies = new Map<string, DownloadView>();
  const saved = async () => {
    const recorded = ((await handlers['downloads.ofJobs']?.([...jobs.keys()])) ?? []) as DownloadView[];
    const copies = new Map(recorded.map((d) => [d.id, d]));
    for (const [id, copy] of changedCopies) copies.set(id, copy);
    return new Set([...copies.values()].filter((d) => d.state === 'saved').map((d) => d.jobId));
  };
  const matching = async (filter: JobFilter = {}) => {
    await load();
    const now = Date.now();
    const copies = filter.saved === undefined ? new Set<string>() : await saved();
    const needle = filter.search?.toLowerCase();
    return [...jobs.values()].filter((job) => {
      const batch = job.purpose?.type === 'batch-row' ? job.purpose.batchId : null;
      const step =
        job.purpose?.type === 'scene-voiceover' ||
        (job.purpose?.type === 'campaign-row' && job.purpose.step === 'voiceover');
      if (filter.kinds?.length && !filter.kinds.includes(job.kind)) return false;
      if (filter.phases?.length && !filter.phases.includes(job.phase)) return false;
      if (filter.projectId !== undefined && job.projectId !== filter.projectId) return false;
      if (filter.batchId !== undefined && batch !== filter.batchId) return false;
      if (filter.createdFrom !== undefined && job.createdAt < filter.createdFrom) return false;
      if (filter.createdBefore !== undefined && job.createdAt >= filter.createdBefore) return false;
      if (filter.ids && !filter.ids.includes(job.id)) return false;
      if (filter.expiringWithinMs !== undefined) {
        const left = (job.expiresAt ?? 0) - now;
        if (job.phase !== 'completed' || left <= 0 || left > filter.expiringWithinMs) return false;
      }
      if (filter.saved !== undefined) {
        if (job.phase !== 'completed' || !job.resultUrl || step) return false;
        if (copies.has(job.id) !== filter.saved) return false;
      }
      if (needle)
        return (
          job.summary.toLowerCase().includes(needle) ||
          job.id.toLowerCase().startsWith(needle) ||
          (job.remoteId ?? '').toLowerCase().startsWith(needle) ||
          (filter.searchProjectIds ?? []).includes(job.projectId ?? '')
        );
      return true;
    });
  };
  const costOf = (job: JobView) => job.chargedCredits ?? job.costEstimate?.credits ?? -1;
  const keyOf: Record<string, (job: JobView) => string | number> = {
    kind: (job) => job.kind,
    phase: (job) => job.phase,
    cost: costOf,
  };
  const page = async (query: JobPageQuery) => {
    const key = keyOf[query.sort ?? 'created'];
    const sign = (query.descending ?? true) ? -1 : 1;
    const compare = (a: JobView, b: JobView) => {
      const ka = key?.(a) ?? 0;
      const kb = key?.(b) ?? 0;
      return (ka < kb ? -1 : ka > kb ? 1 : a.createdAt - b.createdAt || a.id.localeCompare(b.id)) * sign;
    };
    const rows = (await matching(query.filter)).sort(compare);
    const offset = query.offset ?? 0;
    return { jobs: rows.slice(offset, offset + query.limit), next: null };
  };
  const totals = async (filter: JobFilter): Promise<JobTotals> => {
    const rows = await matching(filter);
    const count = <K extends string>(of: (job: JobView) => K) =>
      rows.reduce<Partial<Record<K, number>>>((acc, job) => ({ ...acc, [of(job)]: (acc[of(job)] ?? 0) + 1 }), {});
    const groups = costGroups(rows);
    const since = (ids: (job: JobView) => string | null, id: string) =>
      Math.min(...rows.filter((job) => ids(job) === id).map((job) => job.createdAt));
    const batchOf = (job: JobView) => (job.purpose?.type === 'batch-row' ? job.purpose.batchId : null);
    return {
      count: rows.length,
      byPhase: count((job) => job.phase),
      byKind: count((job) => job.kind),
      cost: totalCost(rows),
      projects: [...groups.projects].map(([id, cost]) => ({
        id,
        count: rows.filter((job) => job.projectId === id).length,
        since: since((job) => job.projectId, id),
        cost,
      })),
      batches: [...groups.batches].map(([id, cost]) => ({
        id,
        count: rows.filter((job) => batchOf(job) === id).length,
        since: since(batchOf, id),
        cost,
      })),
    };
  };
  /** The ids a request names, walking a selection as the host does (its filter and order, but `except`). */
  const chosen = async (request: { jobIds: string[]; selection?: JobSelection }) => {
    if (!request.selection) return request.jobIds;
    const { filter, sort, descending, except = [] } = request.selection;
    const { jobs: rows } = await page({ filter, sort, descending, limit: 1_000_000 });
    return rows.map((job) => job.id).filter((id) => !except.includes(id));
  };
  return {
    chosen,
    handlers: {
      'jobs.page': (query: unknown) => page(query as JobPageQuery),
      'jobs.totals': (filter: unknown) => totals(filter as JobFilter),
      'jobs.refresh': (id: unknown) => jobs.get(id as string),
    } as Record<string, Handler>,
    /** What the host does with the events a test pushes. */
    follow(event: string, payload: unknown) {
      if (event === 'jobs.changed') jobs.set((payload as JobView).id, payload as JobView);
      if (event === 'jobs.removed') jobs.delete((payload as { id: string }).id);
      if (event === 'downloads.changed') changedCopies.set((payload as DownloadView).id, payload as DownloadView);
    },
    remove: (id: string) => jobs.delete(id),
  };
}
