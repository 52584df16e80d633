import { JOB_KIND_LABELS } from '@common/bridge';
import { NO_PROJECT, type JobFilter } from './job-filters';

const STATUS_WORDS: Record<JobFilter['status'], string | null> = {
  all: null,
  active: 'running',
  done: 'completed',
  problems: 'with problems',
};

const day = (ms: number) => new Date(ms).toLocaleDateString();

/** Each part of the filter that narrows the list, in words ("'x'", "not saved", "Avatar video"). */
export function filterParts(filter: JobFilter, projectLabel: (id: string) => string): string[] {
  const parts: string[] = [];
  const search = filter.search.trim();
  if (search) parts.push(`'${search}'`);
  const status = STATUS_WORDS[filter.status];
  if (status) parts.push(status);
  if (filter.kinds.length > 0) parts.push(filter.kinds.map((k) => JOB_KIND_LABELS[k]).join(' or '));
  if (filter.project === NO_PROJECT) parts.push('without a project');
  else if (filter.project !== null) parts.push(`in ${projectLabel(filter.project)}`);
  if (filter.batch !== null) parts.push('in the chosen batch');
  if (filter.notSaved) parts.push('not saved');
  if (filter.expiringSoon) parts.push('expiring in 24 h');
  if (filter.from !== null && filter.to !== null) parts.push(`created ${day(filter.from)} to ${day(filter.to)}`);
  return parts;
}

/**
 * What an empty list says when the filter, not the Library, is empty: what was asked for and how many
 * jobs it hides, so "nothing here" is never read as "nothing saved" or "nothing made".
 */
export function emptyFilterText(filter: JobFilter, total: number, projectLabel: (id: string) => string): string {
  const parts = filterParts(filter, projectLabel);
  // A search reads on from "match"; the other parts are a list of what was asked.
  const asked =
    parts.length === 0
      ? 'No jobs match the filter'
      : filter.search.trim()
        ? `No jobs match ${parts.join(', ')}`
        : `No jobs match: ${parts.join(', ')}`;
  const hidden = total === 1 ? 'the 1 job is hidden' : `all ${total} jobs are hidden`;
  return `${asked} — ${hidden} by the filter.`;
}
