// What the queue panel of a run (a campaign or a voiceover batch) shows, worked out without Vue: its
// rows by state, the queue's counts, and each worker's last heartbeat as an age.
import type { QueueCounts, QueueStatus, QueueWorker } from '@common/bridge/queue-status';

/** A worker not heard from for longer than this is shown in red: it beats every 5 s, so three beats were missed. */
export const WORKER_LATE_MS = 15_000;

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
 * How long before the host read the queue a worker's latest heartbeat was, in whole seconds: measured on
 * the host's clock, not the page's (the page may run on another machine). A worker's clock a little
 * ahead reads as 0.
 */
export function secondsSinceSeen(worker: Pick<QueueWorker, 'seenAt'>, status: Pick<QueueStatus, 'checkedAt'>): number {
  return Math.max(0, Math.floor((status.checkedAt - worker.seenAt) / 1000));
}

export function seenText(seconds: number): string {
  if (seconds < 90) return `last seen ${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  return `last seen ${minutes} min ago`;
}
