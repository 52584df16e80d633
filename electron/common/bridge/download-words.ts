import type { DownloadEntry, DownloadState, DownloadView } from './downloads';

/**
 * Why saving into a folder whose drive is gone waits; the page knows a copy on such a drive by the
 * words' start (isDriveMissing), as the reason is the entry's one field for it.
 */
export const driveMissingReason = (folder: string): string =>
  `The drive holding ${folder} is missing. Saving there is paused and nothing is written in its place; connect the drive again and saving goes on.`;

export const isDriveMissing = (reason: string | null): boolean => reason?.startsWith('The drive holding ') === true;

/** Why saving into a folder on a full disk waits (its reason, known by isDiskFull as the drive's is). */
export const diskFullReason = (folder: string): string =>
  `The disk holding ${folder} is full. Downloads to it are paused and their partial files kept; they go on once some space is freed.`;

export const isDiskFull = (reason: string | null): boolean =>
  reason?.startsWith('The disk holding ') === true && reason.includes(' is full. ');

/** A download that waits for its disk to have room or its drive to come back: nothing of it moves. */
export const isHeld = (view: Pick<DownloadView, 'state' | 'reason'>): boolean =>
  view.state === 'queued' && (isDiskFull(view.reason) || isDriveMissing(view.reason));

export const DOWNLOAD_STATE_LABELS: Record<DownloadState, string> = {
  queued: 'Queued',
  downloading: 'Downloading',
  paused: 'Paused',
  saved: 'Saved',
  failed: 'Failed',
  cancelled: 'Cancelled',
  missing: 'Missing',
  changed: 'Changed on disk',
};

/** "1.2 MB", "340 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/**
 * What the one record of copies says of a result, from its entries (a job's, or a campaign row's by its
 * link): an intact copy wins; then one on its way; then one lost ("Missing", "Changed"); else none.
 */
export const COPY_STATES = ['saved', 'saving', 'missing', 'changed', 'none'] as const;
export type CopyState = (typeof COPY_STATES)[number];

export function copyStateOf(entries: readonly Pick<DownloadEntry, 'state'>[]): CopyState {
  const has = (...states: DownloadState[]) => entries.some((e) => states.includes(e.state));
  if (has('saved')) return 'saved';
  if (has('queued', 'downloading')) return 'saving';
  if (has('missing')) return 'missing';
  if (has('changed')) return 'changed';
  return 'none';
}

export const COPY_STATE_LABELS: Record<CopyState, string> = {
  saved: 'Saved',
  saving: 'Saving…',
  missing: 'File missing',
  changed: 'File changed',
  none: 'Not saved',
};
