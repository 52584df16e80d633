import { JOB_KIND_LABELS, JOB_PHASE_LABELS, describeCost, type DownloadView, type JobView } from '@common/bridge';
import { summariseCopies } from './copies';

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

/** A spreadsheet cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/** The rows as they are shown (filtered and sorted) as CSV, one line per job; saved copies joined by " | ". */
export function manifestCsv(
  jobs: readonly JobView[],
  context: { now: number; projectName(job: JobView): string | null; downloads(job: JobView): readonly DownloadView[] },
): string {
  const lines = [HEADER.join(',')];
  for (const job of jobs) {
    const copies = summariseCopies(job, context.downloads(job), context.now);
    lines.push(
      [
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
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
