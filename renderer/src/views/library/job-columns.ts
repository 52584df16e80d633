import { h } from 'vue';
import type { DataTableColumns } from 'naive-ui';
import {
  JOB_KIND_LABELS,
  JOB_PHASE_LABELS,
  describeCost,
  describeExpiry,
  formatDuration,
  type DownloadView,
  type JobView,
  type ResultMedia,
} from '@common/bridge';
import { JOB_KIND_REGISTRY } from '@common/jobs/kinds';
import { downloadCell, type TransferControls } from './download-cell';
import { summariseCopies } from '@common/jobs/copy-summary';
import { durationCell, sizeCell, thumbCell } from './media-cells';
import { burnButton } from '@/captions/burn-button';
import { cutText, lineBar, rowButton, toneTag, type PartTone } from './row-parts';

export const PHASE_TAG: Record<JobView['phase'], PartTone> = {
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
  /** Every download of the job (its copies), newest first. */
  downloads: (job: JobView) => readonly DownloadView[];
  transfers: TransferControls;
  /** The result's thumbnail, length and size as far as known (asks the host the first time). */
  media: (job: JobView) => ResultMedia | undefined;
  /** Desktop only: opens the folder holding a saved file. */
  showInFolder?: (entry: DownloadView) => void;
  /** Burns the project's captions into a copy of a saved video (captions/burn-captions.ts). */
  burnCaptions?: (entry: DownloadView) => void;
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
  if (left <= 0)
    return toneTag('Expired', 'error', {
      title: 'The service keeps results for 7 days; this one can no longer be opened or downloaded.',
    });
  if (left < DAY)
    return toneTag(describeExpiry(job, now), 'warning', {
      'data-expiring': 'true',
      title: 'Expires within 24 hours',
    });
  return describeExpiry(job, now);
}

/**
 * The columns' widths together (Request at its narrowest, the checkbox column's 36 included): the room
 * a 1280 px window leaves beside the sidebar. The table scrolls sideways below this.
 */
export const TABLE_WIDTH = 984;

/** What the Cost column sorts by: credits charged, else the estimate; nothing known sorts first. */
export function costOf(job: JobView): number {
  return job.chargedCredits ?? job.costEstimate?.credits ?? -1;
}

/** Download states in the order "needs me" first: lost copies, failures, only on the service, in flight, saved. */
const COPY_ORDER = { lost: 0, failed: 1, 'service-only': 2, active: 3, saved: 4, step: 5, none: 6 } as const;

/** A job's summary without the kind it starts with ("Avatar video · "Hello"" → ""Hello""). */
export function requestOf(job: JobView): string {
  const prefix = `${JOB_KIND_LABELS[job.kind]} · `;
  return job.summary.startsWith(prefix) ? job.summary.slice(prefix.length) : job.summary;
}

const text = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });

/**
 * Columns of the jobs table; every cell is plain elements (row-parts.ts), so rows stay cheap to draw. A
 * cut cell's whole text is its title, not a tooltip component: one made with each cell, with its layout
 * read, was most of a row.
 * Every column sorts. Widths add up to fit a 1280 px window beside the sidebar (TABLE_WIDTH).
 */
export function jobColumns(actions: ColumnActions): DataTableColumns<JobView> {
  return [
    { type: 'selection' },
    {
      title: 'Project',
      key: 'project',
      width: 84,
      sorter: (a, b) => text(actions.projectName(a) ?? '', actions.projectName(b) ?? ''),
      render: (job) =>
        cutText(
          actions.projectName(job) ??
            (job.projectId
              ? '—'
              : h(
                  'span',
                  { class: 'no-project', title: 'Made outside a project: the command line, a batch or a tool' },
                  'No project',
                )),
        ),
    },
    {
      title: 'Kind',
      key: 'kind',
      width: 76,
      sorter: (a, b) => text(JOB_KIND_LABELS[a.kind], JOB_KIND_LABELS[b.kind]),
      render: (job) => cutText(JOB_KIND_LABELS[job.kind]),
    },
    {
      title: 'Request',
      key: 'summary',
      minWidth: 104,
      sorter: (a, b) => text(requestOf(a), requestOf(b)),
      // The Kind column already names the kind the summary starts with: the room goes to the words.
      render: (job) =>
        h('div', { class: 'request-cell' }, [
          thumbCell(job, actions.media(job), job.phase === 'completed' && timeLeft(job, actions.now()) > 0),
          h('span', { class: 'request-text', title: requestOf(job) }, requestOf(job)),
        ]),
    },
    {
      title: 'Status',
      key: 'phase',
      width: 92,
      sorter: (a, b) => text(JOB_PHASE_LABELS[a.phase], JOB_PHASE_LABELS[b.phase]) || a.progress - b.progress,
      render: (job) =>
        h('div', { class: 'status-cell' }, [
          toneTag(JOB_PHASE_LABELS[job.phase], PHASE_TAG[job.phase]),
          // The service reports only a status; the bar is an estimate, shown while the job runs.
          job.phase === 'queued' || job.phase === 'processing' || job.phase === 'submitting'
            ? lineBar(job.progress * 100, `Progress ${Math.round(job.progress * 100)}%`, 3)
            : null,
        ]),
    },
    {
      title: 'Download',
      key: 'download',
      width: 140,
      sorter: (a, b) =>
        COPY_ORDER[summariseCopies(a, actions.downloads(a), actions.now()).state] -
        COPY_ORDER[summariseCopies(b, actions.downloads(b), actions.now()).state],
      render: (job) => downloadCell(job, actions.downloads(job), actions.now(), actions.transfers),
    },
    {
      title: 'Length',
      key: 'duration',
      // The title and its sort arrow need 86 px; at 78 the arrow ran into the next column's title.
      width: 86,
      sorter: (a, b) => (actions.media(a)?.durationMs ?? -1) - (actions.media(b)?.durationMs ?? -1),
      render: (job) => (job.phase === 'completed' ? durationCell(actions.media(job)) : '—'),
    },
    {
      title: 'Size',
      key: 'size',
      width: 68,
      sorter: (a, b) => (actions.media(a)?.bytes ?? -1) - (actions.media(b)?.bytes ?? -1),
      render: (job) => (job.phase === 'completed' ? sizeCell(actions.media(job)) : '—'),
    },
    {
      // The job's age shares this cell (a result's time left is its age taken from 7 days): one column
      // fewer, so the thumbnail, length and size fit a 1280 px window.
      title: 'Available',
      key: 'expiresAt',
      width: 100,
      sorter: (a, b) => timeLeft(a, actions.now()) - timeLeft(b, actions.now()) || b.createdAt - a.createdAt,
      render: (job) =>
        h('div', { class: 'expiry-cell', title: `Made ${new Date(job.createdAt).toLocaleString()}` }, [
          h('div', null, [expiryCell(job, actions.now())]),
          h('div', { class: 'job-age', 'data-age': 'true' }, `${formatDuration(actions.now() - job.createdAt)} ago`),
        ]),
    },
    // 86 px: "not charged" wraps between its words, where at 72 it broke inside "charged".
    {
      title: 'Cost',
      key: 'cost',
      width: 86,
      sorter: (a, b) => costOf(a) - costOf(b),
      render: (job) => describeCost(job),
    },
    {
      title: '',
      key: 'actions',
      // Kept in view whatever the window's width; the desktop app's "Folder" button needs more room.
      fixed: 'right',
      width: (actions.showInFolder ? 160 : 112) + (actions.burnCaptions ? 32 : 0),
      render: (job) => {
        const expired = timeLeft(job, actions.now()) <= 0;
        const saved = actions.downloads(job).find((d) => d.state === 'saved');
        // After expiry, Open plays the verified local copy; without one there is nothing to open.
        const canOpen = job.resultUrl !== null && job.phase === 'completed' && (!expired || saved !== undefined);
        return h('div', { class: 'row-actions' }, [
          saved && actions.showInFolder
            ? rowButton('Folder', { title: 'Show in folder', onClick: () => actions.showInFolder?.(saved) })
            : null,
          job.resultUrl && job.phase === 'completed'
            ? rowButton('Open', {
                look: 'filled',
                disabled: !canOpen,
                title: expired
                  ? saved
                    ? `The link expired; opens the saved copy ${saved.savedPath ?? ''}`
                    : 'Expired: the service keeps results for 7 days, and no saved copy is on disk.'
                  : undefined,
                onClick: () => actions.open(job),
              })
            : null,
          rowButton('Details', { onClick: () => actions.details(job) }),
          saved && actions.burnCaptions && job.projectId && JOB_KIND_REGISTRY[job.kind].result.projectScenes !== null
            ? burnButton(summariseCopies(job, actions.downloads(job), actions.now()).saved, actions.burnCaptions)
            : null,
        ]);
      },
    },
  ];
}
