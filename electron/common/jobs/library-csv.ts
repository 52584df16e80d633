import type { DownloadView } from '../bridge/downloads';
import { describeCost, JOB_PHASE_LABELS, type JobView } from '../bridge/jobs';
import { JOB_KIND_LABELS } from './kinds';
import { summariseCopies } from './copy-summary';

// The Library's "Export CSV": one line per job as the Library shows it. The host writes the file a page
// at a time (services/downloads/library-export.ts), so the columns live here, once, line by line.

const HEADER = [
  'studio id',
  'service id',
  'project',
  'kind',
  'request',
  'status',
  'created',
  'expires',
  'cost',
  'download',
  'saved copies',
  'result link',
];

/** What a line needs besides the job: the time its copies are judged at, its project's name and its copies. */
export interface CsvContext {
  now: number;
  projectName(job: JobView): string | null;
  downloads(job: JobView): readonly DownloadView[];
}

/** A spreadsheet cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/** The first line of the file, with its line end. */
export const CSV_HEADER_LINE = `${HEADER.join(',')}\r\n`;

/** One job's line, with its line end; saved copies joined by " | ". */
export function csvLine(job: JobView, context: CsvContext): string {
  const copies = summariseCopies(job, context.downloads(job), context.now);
  const cells = [
    job.id,
    job.remoteId ?? '',
    context.projectName(job) ?? '',
    JOB_KIND_LABELS[job.kind],
    job.summary,
    JOB_PHASE_LABELS[job.phase],
    iso(job.createdAt),
    iso(job.expiresAt),
    describeCost(job),
    copies.text,
    copies.saved.map((d) => d.savedPath ?? '').join(' | '),
    job.resultUrl ?? '',
  ];
  return `${cells.map(cell).join(',')}\r\n`;
}

/** A few jobs as a whole file (tests and small callers); the Library's export goes line by line. */
export function libraryCsv(jobs: readonly JobView[], context: CsvContext): string {
  return CSV_HEADER_LINE + jobs.map((job) => csvLine(job, context)).join('');
}
