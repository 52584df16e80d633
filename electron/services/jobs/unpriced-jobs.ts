import type { JobRecord } from '../../common/bridge/jobs';
import { guides } from './paid-gate';

type Written = Pick<JobRecord, 'id' | 'kind' | 'connectionId' | 'phase' | 'chargedCredits' | 'chargeSource'>;

/**
 * The most jobs kept waiting, the oldest let go first: on a connection whose balance cannot be read, a
 * kind may never get a guide, and a worker of 100,000 rows must not keep one entry a row for it.
 */
export const MOST_WAITING = 1_000;

/**
 * A listener on every record the engine writes: it keeps the completed jobs left without a charge because
 * their kind had no guide yet (paid-gate.ts pricedOnceCompleted), and when a charge that gives one is
 * written (a measured voiceover, say), has each of that kind on that connection written again, which
 * prices it. Held in memory only (MOST_WAITING at most): after a restart, or once let go, such a job is
 * priced with its next change, if any.
 */
export function unpricedJobs(writeAgain: (id: string) => void): (record: Written) => void {
  const waiting = new Map<string, string>();
  const guideOf = (r: Written) => `${r.connectionId} ${r.kind}`;
  return (record) => {
    if (record.phase === 'completed' && record.chargedCredits === null) {
      if (!waiting.has(record.id) && waiting.size >= MOST_WAITING) waiting.delete(waiting.keys().next().value!);
      waiting.set(record.id, guideOf(record));
      return;
    }
    waiting.delete(record.id);
    if (waiting.size === 0 || !guides(record)) return;
    const guide = guideOf(record);
    for (const [id, of] of [...waiting]) if (of === guide) writeAgain(id);
  };
}
