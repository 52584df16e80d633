import { JOB_PHASES, phaseClass, type JobPhase, type JobSort } from '@common/bridge';
import type { JobFilter as HostFilter } from '@common/bridge/job-pages';
import { NO_PROJECT, type JobFilter, type StatusFilter } from './job-filters';

const DAY = 86_400_000;

const phasesOf = (keep: (phase: JobPhase) => boolean): JobPhase[] => JOB_PHASES.filter(keep);

/** The tabs as sets of phases, as phaseClass groups them. */
const STATUS_PHASES: Record<StatusFilter, JobPhase[] | undefined> = {
  all: undefined,
  active: phasesOf((phase) => phaseClass(phase) === 'active'),
  done: ['completed'],
  problems: phasesOf((phase) => phaseClass(phase) === 'attention'),
};

/**
 * The Library's filter as the host's question. Every part is answered by the database; "Not saved" by
 * the host, which knows the copies on disk. The search reads the request's summary and the ids, and
 * a project's name through `named` (the ids of the projects it names: names are not in the database).
 */
export function toHostFilter(
  filter: JobFilter,
  { status = true, named }: { status?: boolean; named?: (search: string) => string[] } = {},
): HostFilter {
  const host: HostFilter = {};
  const phases = status ? STATUS_PHASES[filter.status] : undefined;
  if (phases) host.phases = phases;
  if (filter.kinds.length > 0) host.kinds = filter.kinds;
  if (filter.project !== null) host.projectId = filter.project === NO_PROJECT ? null : filter.project;
  if (filter.batch !== null) host.batchId = filter.batch;
  if (filter.from !== null) host.createdFrom = filter.from;
  // `to` is the chosen last day's start: the day is included.
  if (filter.to !== null) host.createdBefore = filter.to + DAY;
  if (filter.expiringSoon) host.expiringWithinMs = DAY;
  if (filter.notSaved) host.saved = false;
  const search = filter.search.trim();
  if (search) host.search = search;
  const projects = search ? (named?.(search) ?? []) : [];
  if (projects.length > 0) host.searchProjectIds = projects;
  return host;
}

/** The table's columns the host can order by, and the order each asks for. */
export const HOST_SORTS: Partial<Record<string, JobSort>> = {
  kind: 'kind',
  phase: 'phase',
  cost: 'cost',
};

export interface TableSort {
  columnKey: string;
  order: 'ascend' | 'descend';
}

/** The order to ask the host for: a sortable column's, else newest first. */
export function toHostSort(sort: TableSort | null): { sort: JobSort; descending: boolean } {
  const column = sort ? HOST_SORTS[sort.columnKey] : undefined;
  if (!sort || !column) return { sort: 'created', descending: true };
  return { sort: column, descending: sort.order === 'descend' };
}

/**
 * The columns as the host sorts them: those it can order by ask it (naive-ui's `remote` sorter, shown
 * as the current order), the others do not sort, since sorting the rows on screen would only look sorted.
 */
export function hostSortedColumns<C extends { key?: unknown; sorter?: unknown }>(
  columns: C[],
  sort: TableSort | null,
): C[] {
  return columns.map((column) => {
    if (!('key' in column) || !('sorter' in column)) return column;
    const key = String(column.key);
    if (!HOST_SORTS[key]) return { ...column, sorter: undefined };
    return { ...column, sorter: true, sortOrder: sort?.columnKey === key ? sort.order : false };
  });
}
