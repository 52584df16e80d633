import { h } from 'vue';
import { NProgress } from 'naive-ui';
import { DOWNLOAD_STATE_LABELS, formatDuration, type DownloadView } from '@common/bridge';
import { formatBytes } from '@/stores/downloads';

/** "42% · 2.1 MB/s · 12 s left", "Saved" (the path on hover and below), "Failed: why". */
export function describeDownload(entry: DownloadView): string {
  switch (entry.state) {
    case 'downloading': {
      const percent = entry.totalBytes ? `${Math.floor((entry.bytes / entry.totalBytes) * 100)}%` : formatBytes(entry.bytes);
      const speed = entry.bytesPerSecond ? ` · ${formatBytes(entry.bytesPerSecond)}/s` : '';
      const left = entry.secondsLeft !== null ? ` · ${formatDuration(entry.secondsLeft * 1000)} left` : '';
      return `${percent}${speed}${left}`;
    }
    case 'failed':
      return `Failed: ${entry.reason ?? 'unknown reason'}`;
    case 'queued':
      return entry.reason ? `Queued · ${entry.reason}` : 'Queued';
    default:
      return DOWNLOAD_STATE_LABELS[entry.state];
  }
}

export function downloadCell(entry: DownloadView | undefined) {
  if (!entry) return '—';
  const text = describeDownload(entry);
  const fraction = entry.totalBytes ? entry.bytes / entry.totalBytes : 0;
  return h('div', { class: 'download-cell', 'data-download-state': entry.state, title: entry.savedPath ?? entry.reason ?? text }, [
    h('div', { class: 'download-text' }, text),
    entry.state === 'downloading' || entry.state === 'paused'
      ? h(NProgress, { type: 'line', percentage: Math.floor(fraction * 100), showIndicator: false, height: 4, 'aria-label': `Download ${Math.floor(fraction * 100)}%` })
      : null,
    // Cut from the left so the file name stays visible; the mark keeps the path's own order in that box.
    entry.savedPath ? h('div', { class: 'download-path' }, `\u200E${entry.savedPath}\u200E`) : null,
  ]);
}
