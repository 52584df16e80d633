import { type DownloadView } from '../bridge/downloads';
import { DOWNLOAD_STATE_LABELS, formatBytes, isDriveMissing } from '../bridge/download-words';
import { describeExpiry, formatDuration, type JobView } from '../bridge/jobs';
import { stepOf } from './steps';

// What the Library says about a job's copies, from all of its downloads together: its cells, its
// filters and its CSV (library-csv.ts, written by the host) read them here.

/** "42% · 2.1 MB/s · 12 s left", "Paused at 40%", "Failed: why". */
export function describeDownload(entry: DownloadView): string {
  const percent = entry.totalBytes
    ? `${Math.floor((entry.bytes / entry.totalBytes) * 100)}%`
    : formatBytes(entry.bytes);
  switch (entry.state) {
    case 'downloading': {
      const speed = entry.bytesPerSecond ? ` · ${formatBytes(entry.bytesPerSecond)}/s` : '';
      const left = entry.secondsLeft !== null ? ` · ${formatDuration(entry.secondsLeft * 1000)} left` : '';
      return `${percent}${speed}${left}`;
    }
    case 'paused':
      return entry.bytes > 0 ? `Paused at ${percent}` : 'Paused';
    case 'failed':
      return `Failed: ${entry.reason ?? 'unknown reason'}`;
    case 'queued':
      // The banner above the list says the whole of a cause shared by many rows; each row names it short.
      if (isDriveMissing(entry.reason)) return 'Waiting for its drive';
      if (entry.reason?.startsWith('The disk holding ')) return 'Waiting for disk space';
      return entry.reason ? `Queued · ${entry.reason}` : 'Queued';
    default:
      return DOWNLOAD_STATE_LABELS[entry.state];
  }
}

export interface CopySummary {
  text: string;
  /** For the cell's mark and tests: the most important fact. */
  state: 'saved' | 'active' | 'lost' | 'failed' | 'service-only' | 'step' | 'none';
  /** Verified copies, newest first. */
  saved: DownloadView[];
  /** The download to show progress and controls for (running, paused, or failed with no copy). */
  focus: DownloadView | null;
}

const ACTIVE = new Set<DownloadView['state']>(['queued', 'downloading', 'paused']);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A job's state is the union of its copies: a later download that failed does not hide a copy that is
 * on disk, and a copy found missing or changed is said so even while another is intact.
 */
export function summariseCopies(job: JobView, entries: readonly DownloadView[], now: number): CopySummary {
  const newest = [...entries].sort((a, b) => b.createdAt - a.createdAt);
  // The user's own downloads first, the archive's copies after them.
  const saved = newest
    .filter((d) => d.state === 'saved')
    .sort((a, b) => Number(a.origin === 'archive') - Number(b.origin === 'archive'));
  const active = newest.find((d) => ACTIVE.has(d.state)) ?? null;
  const lost = newest.filter((d) => d.state === 'missing' || d.state === 'changed');
  const failed = newest.find((d) => d.state === 'failed') ?? null;
  // A copy on a drive that is gone is not lost: it comes back with the drive.
  const offline = lost.filter((d) => isDriveMissing(d.reason));
  const lostNote =
    lost.length === 0
      ? ''
      : offline.length === lost.length
        ? ` · ${plural(lost.length, 'copy')} on a missing drive`
        : ` · ${plural(lost.length, 'copy')} ${lost.some((d) => d.state === 'missing') ? 'missing' : 'changed on disk'}`;
  const linkAlive =
    job.phase === 'completed' && job.resultUrl !== null && (job.expiresAt === null || job.expiresAt > now);
  if (active) {
    const also = saved.length > 0 ? ` · saved in ${plural(saved.length, 'place')}` : '';
    // A copy found missing and on its way back says so until it is saved again.
    const again = active.refetchedAt !== null ? 'Copy missing, fetching again · ' : '';
    // Waiting its turn, the refetch's own reason would only say "fetching again" twice.
    const progress =
      again && active.state === 'queued' && active.reason?.startsWith('The saved copy was')
        ? 'Queued'
        : describeDownload(active);
    // A changed copy is left as its user made it and a fresh one is fetched beside it: the row says both.
    return {
      text: `${again}${progress}${also}${lostNote}`,
      state: again ? 'lost' : 'active',
      saved,
      focus: active,
    };
  }
  if (saved.length > 0) {
    const where = saved.length === 1 ? 'Saved' : `Saved in ${saved.length} places`;
    return { text: `${where}${lostNote}`, state: 'saved', saved, focus: null };
  }
  const serviceNote = linkAlive ? ` · on the service: ${describeExpiry(job, now)}` : '';
  if (lost.length > 0) {
    const first = lost[0];
    const what =
      offline.length === lost.length
        ? `Drive missing: ${first.folder}`
        : first.state === 'missing'
          ? 'Copy missing'
          : 'Copy changed on disk';
    return {
      text: `${what}${lost.length > 1 ? ` (${lost.length})` : ''}${serviceNote}`,
      state: 'lost',
      saved,
      focus: failed,
    };
  }
  if (failed) {
    const text =
      failed.refetchedAt !== null
        ? `Copy missing; fetching it again failed: ${failed.reason ?? 'unknown reason'}`
        : describeDownload(failed);
    return { text, state: failed.refetchedAt !== null ? 'lost' : 'failed', saved, focus: failed };
  }
  // A step of something else (a campaign row's voiceover) is not a result of its own to save.
  const step = stepOf(job);
  if (step) return { text: step, state: 'step', saved, focus: null };
  if (linkAlive)
    return { text: `Only on the service: ${describeExpiry(job, now)}`, state: 'service-only', saved, focus: null };
  return { text: '—', state: 'none', saved, focus: null };
}
