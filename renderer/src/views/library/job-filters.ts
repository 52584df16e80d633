import { phaseClass, type DownloadView, type JobKind, type JobView } from '@common/bridge';
import { summariseCopies } from '@common/jobs/copy-summary';
import { stepOf } from '@common/jobs/steps';

export type StatusFilter = 'all' | 'active' | 'done' | 'problems';

/** Everything the Library can narrow its list by; empty fields do not narrow. */
export interface JobFilter {
  status: StatusFilter;
  search: string;
  kinds: JobKind[];
  /** A project id, or NO_PROJECT for jobs without one. */
  project: string | null;
  batch: string | null;
  /** Completed jobs with no verified copy on disk. */
  notSaved: boolean;
  /** Results whose link expires within 24 hours. */
  expiringSoon: boolean;
  /** Created within [from, to] (ms; `to` is the end of its day). */
  from: number | null;
  to: number | null;
}

export const NO_PROJECT = '\u0000none';
const DAY = 86_400_000;

export function emptyFilter(): JobFilter {
  return {
    status: 'all',
    search: '',
    kinds: [],
    project: null,
    batch: null,
    notSaved: false,
    expiringSoon: false,
    from: null,
    to: null,
  };
}

export interface FilterContext {
  now: number;
  projectName(job: JobView): string | null;
  downloads(job: JobView): readonly DownloadView[];
}

export function batchOf(job: JobView): string | null {
  return job.purpose?.type === 'batch-row' ? job.purpose.batchId : null;
}

export function matchesFilter(job: JobView, filter: JobFilter, context: FilterContext): boolean {
  const kind = phaseClass(job.phase);
  if (filter.status === 'active' && kind !== 'active') return false;
  if (filter.status === 'done' && job.phase !== 'completed') return false;
  if (filter.status === 'problems' && kind !== 'attention') return false;
  if (filter.kinds.length > 0 && !filter.kinds.includes(job.kind)) return false;
  if (filter.project !== null && (job.projectId ?? NO_PROJECT) !== filter.project) return false;
  if (filter.batch !== null && batchOf(job) !== filter.batch) return false;
  if (filter.from !== null && job.createdAt < filter.from) return false;
  if (filter.to !== null && job.createdAt >= filter.to + DAY) return false;
  if (filter.expiringSoon) {
    if (job.phase !== 'completed' || job.expiresAt === null) return false;
    const left = job.expiresAt - context.now;
    if (left <= 0 || left > DAY) return false;
  }
  if (filter.notSaved) {
    if (job.phase !== 'completed' || !job.resultUrl || stepOf(job) !== null) return false;
    if (summariseCopies(job, context.downloads(job), context.now).saved.length > 0) return false;
  }
  const needle = filter.search.trim().toLowerCase();
  if (!needle) return true;
  return (
    job.summary.toLowerCase().includes(needle) ||
    job.id.startsWith(needle) ||
    (job.remoteId ?? '').toLowerCase().startsWith(needle) ||
    (context.projectName(job) ?? '').toLowerCase().includes(needle)
  );
}
