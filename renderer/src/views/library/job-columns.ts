import { h } from 'vue';
import { NButton, NProgress, NTag, type DataTableColumns } from 'naive-ui';
import { JOB_KIND_LABELS, JOB_PHASE_LABELS, describeCost, describeExpiry, formatDuration, type JobView } from '@common/bridge';

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
}

/** Columns of the jobs table; every cell is plain text or a small naive-ui part, so rows stay cheap. */
export function jobColumns(actions: ColumnActions): DataTableColumns<JobView> {
  return [
    { title: 'Kind', key: 'kind', width: 130, render: (job) => JOB_KIND_LABELS[job.kind] },
    { title: 'Request', key: 'summary', ellipsis: { tooltip: true }, minWidth: 220 },
    {
      title: 'Status',
      key: 'phase',
      width: 150,
      render: (job) => h(NTag, { size: 'small', type: PHASE_TAG[job.phase], bordered: false, round: true }, () => JOB_PHASE_LABELS[job.phase]),
    },
    {
      title: 'Progress',
      key: 'progress',
      width: 120,
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
    { title: 'Available', key: 'expiresAt', width: 120, render: (job) => describeExpiry(job, actions.now()) },
    { title: 'Cost', key: 'cost', width: 110, render: (job) => describeCost(job) },
    {
      title: '',
      key: 'actions',
      width: 150,
      render: (job) =>
        h('div', { class: 'row-actions' }, [
          job.resultUrl && job.phase === 'completed'
            ? h(NButton, { size: 'tiny', secondary: true, onClick: (e: MouseEvent) => { e.stopPropagation(); actions.open(job); } }, () => 'Open')
            : null,
          h(NButton, { size: 'tiny', quaternary: true, onClick: (e: MouseEvent) => { e.stopPropagation(); actions.details(job); } }, () => 'Details'),
        ]),
    },
  ];
}
