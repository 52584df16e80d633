import { h } from 'vue';
import type { DownloadView, JobView } from '@common/bridge';
import { summariseCopies } from '@common/jobs/copy-summary';
import { lineBar, rowButton } from './row-parts';

/** What a user can do to one download from its row. */
export interface TransferControls {
  pause(entry: DownloadView): void;
  resume(entry: DownloadView): void;
  cancel(entry: DownloadView): void;
}

const button = (label: string, onClick: () => void) =>
  rowButton(label, { attrs: { 'data-transfer-action': label.toLowerCase() }, onClick });

function controlsFor(entry: DownloadView, controls: TransferControls) {
  if (entry.state === 'downloading' || entry.state === 'queued')
    return [button('Pause', () => controls.pause(entry)), button('Cancel', () => controls.cancel(entry))];
  if (entry.state === 'paused')
    return [button('Resume', () => controls.resume(entry)), button('Cancel', () => controls.cancel(entry))];
  if (entry.state === 'failed') return [button('Retry', () => controls.resume(entry))];
  return [];
}

/** The Download column: every copy of the job summed up, progress and controls for the one in flight. */
export function downloadCell(job: JobView, entries: readonly DownloadView[], now: number, controls: TransferControls) {
  if (entries.length === 0 && job.phase !== 'completed') return '—';
  const summary = summariseCopies(job, entries, now);
  const focus = summary.focus;
  const fraction = focus?.totalBytes ? focus.bytes / focus.totalBytes : 0;
  const paths = summary.saved.map((d) => d.savedPath).filter((p): p is string => p !== null);
  // The whole text first: the cell shows two lines of it at most.
  const title = [
    summary.text,
    ...paths,
    ...entries.filter((d) => d.state === 'missing' || d.state === 'changed').map((d) => d.reason ?? ''),
  ].join('\n');
  return h(
    'div',
    { class: 'download-cell', 'data-download-state': summary.state, 'data-download-id': focus?.id, title },
    [
      h('div', { class: 'download-text' }, summary.text),
      focus && (focus.state === 'downloading' || focus.state === 'paused')
        ? lineBar(fraction * 100, `Download ${Math.floor(fraction * 100)}%`, 4)
        : null,
      // Cut from the left so the file name stays visible; the mark keeps the path's own order in that box.
      paths.length > 0 ? h('div', { class: 'download-path' }, `\u200E${paths[0]}\u200E`) : null,
      focus ? h('div', { class: 'download-controls' }, controlsFor(focus, controls)) : null,
    ],
  );
}
