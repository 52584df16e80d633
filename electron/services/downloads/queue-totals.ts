import type { DownloadEntry, DownloadTotals } from '../../common/bridge/downloads';

/**
 * The Library's one line for the whole queue: files still to come, their bytes so far and in all, and
 * why saving waits (each cause that holds: a full disk, a missing drive).
 */
export function queueTotals(entries: Iterable<DownloadEntry>, reasons: readonly (string | null)[]): DownloadTotals {
  const held = reasons.filter((r) => r !== null);
  const pausedReason = held.length > 0 ? held.join(' ') : null;
  let active = 0;
  let bytes = 0;
  let totalBytes = 0;
  let unknownSizes = 0;
  for (const entry of entries) {
    if (entry.state !== 'queued' && entry.state !== 'downloading') continue;
    active += 1;
    bytes += entry.bytes;
    // A file of a size not known yet counts what it has so far, so the bar never runs past its end.
    totalBytes += entry.totalBytes ?? entry.bytes;
    if (entry.totalBytes === null) unknownSizes += 1;
  }
  return { active, bytes, totalBytes, unknownSizes, pausedReason };
}

export type StateCounts = Partial<Record<DownloadEntry['state'], number>>;

/** How many of the entries `keep` keeps are in each state. */
export function countStates(entries: Iterable<DownloadEntry>, keep: (entry: DownloadEntry) => boolean): StateCounts {
  const counts: StateCounts = {};
  for (const entry of entries) if (keep(entry)) counts[entry.state] = (counts[entry.state] ?? 0) + 1;
  return counts;
}
