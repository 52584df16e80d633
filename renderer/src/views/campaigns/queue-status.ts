// What the queue panel of a campaign shows, worked out without Vue: its rows by state, the queue's
// counts, and each worker's last heartbeat as an age.
import type { CampaignQueueStatus, QueueCounts, QueueWorker } from '@common/bridge/campaigns';
import type { CampaignRowState } from '@common/campaign/record';
import { rowStateLabel } from './campaign-logic';

/** A worker not heard from for longer than this is shown in red: it beats every 5 s, so three beats were missed. */
export const WORKER_LATE_MS = 15_000;

/** The order rows are listed in: the ones under way first, then how the others ended. */
const ROW_ORDER: CampaignRowState[] = [
  'voiceover',
  'video',
  'download',
  'pending',
  'held',
  'done',
  'failed',
  'cancelled',
  'invalid',
];

/** The queued campaign's rows by state, in ROW_ORDER, states without rows left out (rows sent: "On the queue"). */
export function rowsByState(counts: Record<string, number>): { state: string; label: string; count: number }[] {
  // A row's voiceover and video steps both read "On the queue" here: one line for both.
  const known: { state: string; label: string; count: number }[] = [];
  for (const state of ROW_ORDER.filter((s) => (counts[s] ?? 0) > 0)) {
    const label = rowStateLabel(state, true);
    const same = known.find((k) => k.label === label);
    if (same) same.count += counts[state];
    else known.push({ state, label, count: counts[state] });
  }
  const others = Object.entries(counts)
    .filter(([state, count]) => count > 0 && !ROW_ORDER.includes(state as CampaignRowState))
    .map(([state, count]) => ({ state, label: state, count }));
  return [...known, ...others];
}

export const QUEUE_COUNT_LABELS: Record<keyof QueueCounts, string> = {
  waiting: 'waiting',
  active: 'being made',
  delayed: 'waiting to retry',
  failed: 'failed (kept for review)',
};

/**
 * How long before the host read the queue a worker's latest heartbeat was, in whole seconds: measured on
 * the host's clock, not the page's (the page may run on another machine). A worker's clock a little
 * ahead reads as 0.
 */
export function secondsSinceSeen(
  worker: Pick<QueueWorker, 'seenAt'>,
  status: Pick<CampaignQueueStatus, 'checkedAt'>,
): number {
  return Math.max(0, Math.floor((status.checkedAt - worker.seenAt) / 1000));
}

export function seenText(seconds: number): string {
  if (seconds < 90) return `last seen ${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  return `last seen ${minutes} min ago`;
}
