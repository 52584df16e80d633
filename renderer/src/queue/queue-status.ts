// What the queue panel of a run (a campaign or a voiceover batch) shows, worked out without Vue: its
// rows by state, the queue's counts, and how long each connected worker has been there.
import type { QueueCounts, QueueStatus, QueueWorker } from '@common/bridge/queue-status';

/** One line of "this run's rows": how many rows are in states the page names alike. */
export interface RowsInState {
  state: string;
  label: string;
  count: number;
}

/**
 * A run's rows by state, in `order`, states without rows left out; states the page names alike (a
 * campaign's voiceover and video steps both read "On the queue") are one line. States not in `order`
 * come last, by their own names, so a state added later is still counted.
 */
export function rowsByState<State extends string>(
  counts: Partial<Record<string, number>>,
  order: readonly State[],
  label: (state: State) => string,
): RowsInState[] {
  const known: RowsInState[] = [];
  for (const state of order) {
    const count = counts[state] ?? 0;
    if (count <= 0) continue;
    const named = label(state);
    const same = known.find((k) => k.label === named);
    if (same) same.count += count;
    else known.push({ state, label: named, count });
  }
  const others = Object.entries(counts)
    .filter(([state, count]) => (count ?? 0) > 0 && !(order as readonly string[]).includes(state))
    .map(([state, count]) => ({ state, label: state, count: count ?? 0 }));
  return [...known, ...others];
}

export const QUEUE_COUNT_LABELS: Record<keyof QueueCounts, string> = {
  waiting: 'waiting',
  active: 'being made',
  delayed: 'waiting to retry',
  failed: 'failed (kept for review)',
};

/**
 * How long a worker's connection to the queue had been open when the host read the queue, in whole
 * seconds: both times are the host's, not the page's (the page may run on another machine).
 */
export function secondsConnected(
  worker: Pick<QueueWorker, 'connectedAt'>,
  status: Pick<QueueStatus, 'checkedAt'>,
): number {
  return Math.max(0, Math.floor((status.checkedAt - worker.connectedAt) / 1000));
}

export function connectedText(seconds: number): string {
  if (seconds < 90) return `for ${seconds} s`;
  if (seconds < 90 * 60) return `for ${Math.floor(seconds / 60)} min`;
  return `for ${Math.floor(seconds / 3600)} h`;
}
