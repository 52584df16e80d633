import { h } from 'vue';
import { NButton, NProgress, NTag, type DataTableColumns } from 'naive-ui';
import { JOB_KIND_LABELS, JOB_PHASE_LABELS, describeCost, describeExpiry, formatDuration, type DownloadView, type JobView } from '@common/bridge';
import { downloadCell } from './download-cell';

type TagType = 'default' | 'info' | 'success' | 'warning' | 'error';

export const PHASE_TAG: Record<JobView['phase'], TagType> = {
  submitting: 'info',
  queued: 'default',
  processing: 'info',
  completed: 'success',
  failed: 'error',
  'outcome-unknown': 'warning',
  stalled: 'warning',
};

export interface ColumnActions {
  now: () => number;
  open: (job: JobView) => void;
  details: (job: JobView) => void;
  projectName: (job: JobView) => string | null;
  download: (job: JobView) => DownloadView | undefined;
  /** Desktop only: opens the folder holding a saved file. */
  showInFolder?: (entry: DownloadView) => void;
}

const DAY = 86_400_000;

/** Milliseconds until the result expires; failed and unfinished jobs sort last (nothing to lose). */
export function timeLeft(job: JobView, now: number): number {
  if (job.phase !== 'completed' || job.expiresAt === null) return Number.POSITIVE_INFINITY;
  return job.expiresAt - now;
}

function expiryCell(job: JobView, now: number) {
  // Failed or unfinished jobs have no result to lose, so no countdown.
  if (job.phase !== 'completed') return '—';
  const left = timeLeft(job, now);
  if (left <= 0) return h(NTag, { size: 'small', type: 'error', bordered: false, title: 'The service keeps results for 7 days; this one can no longer be opened or downloaded.' }, () => 'Expired');
  if (left < DAY) return h(NTag, { size: 'small', type: 'warning', bordered: false, 'data-expiring': 'true', title: 'Expires within 24 hours' }, () => describeExpiry(job, now));
  return describeExpiry(job, now);
}

/** Columns of the jobs table; every cell is plain text or a small naive-ui part, so rows stay cheap. */
export function jobColumns(actions: ColumnActions): DataTableColumns<JobView> {
  return [
    { type: 'selection' },
    { title: 'Project', key: 'project', width: 140, ellipsis: { tooltip: true }, render: (job) => actions.projectName(job) ?? '—' },
    { title: 'Kind', key: 'kind', width: 130, render: (job) => JOB_KIND_LABELS[job.kind] },
    { title: 'Request', key: 'summary', ellipsis: { tooltip: true }, minWidth: 200 },
    {
      title: 'Status',
      key: 'phase',
      width: 150,
      render: (job) => h(NTag, { size: 'small', type: PHASE_TAG[job.phase], bordered: false, round: true }, () => JOB_PHASE_LABELS[job.phase]),
    },
    { title: 'Download', key: 'download', width: 250, render: (job) => downloadCell(actions.download(job)) },
    {
      title: 'Progress',
      key: 'progress',
      width: 90,
      render: (job) =>
        h(NProgress, {
          type: 'line',
          percentage: Math.round(job.progress * 100),
          showIndicator: false,
          height: 6,
          status: job.phase === 'failed' ? 'error' : job.phase === 'completed' ? 'success' : job.phase === 'outcome-unknown' || job.phase === 'stalled' ? 'warning' : 'default',
          'aria-label': `Progress ${Math.round(job.progress * 100)}%`,
        }),
    },
    { title: 'Age', key: 'createdAt', width: 90, render: (job) => formatDuration(actions.now() - job.createdAt) },
    {
      title: 'Available',
      key: 'expiresAt',
      width: 120,
      sorter: (a, b) => timeLeft(a, actions.now()) - timeLeft(b, actions.now()),
      render: (job) => expiryCell(job, actions.now()),
    },
    { title: 'Cost', key: 'cost', width: 110, render: (job) => describeCost(job) },
    {
      title: '',
      key: 'actions',
      width: 150,
      render: (job) => {
        const expired = timeLeft(job, actions.now()) <= 0;
        const saved = actions.download(job);
        return h('div', { class: 'row-actions' }, [
          saved?.state === 'saved' && actions.showInFolder
            ? h(NButton, { size: 'tiny', quaternary: true, onClick: (e: MouseEvent) => { e.stopPropagation(); actions.showInFolder?.(saved); } }, () => 'Show in folder')
            : null,
          job.resultUrl && job.phase === 'completed'
            ? h(
                NButton,
                {
                  size: 'tiny',
                  secondary: true,
                  disabled: expired,
                  title: expired ? 'Expired: the service keeps results for 7 days.' : undefined,
                  onClick: (e: MouseEvent) => { e.stopPropagation(); actions.open(job); },
                },
                () => 'Open',
              )
            : null,
          h(NButton, { size: 'tiny', quaternary: true, onClick: (e: MouseEvent) => { e.stopPropagation(); actions.details(job); } }, () => 'Details'),
        ]);
      },
    },
  ];
}
