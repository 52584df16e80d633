import type { JobRecord } from '../../common/bridge/jobs';

type Timed = Pick<JobRecord, 'kind' | 'connectionId' | 'createdAt' | 'finishedAt' | 'remoteId' | 'polls'>;

/**
 * Remembers how long recent jobs of each kind took on each connection, so the scheduler can skip
 * polls that cannot find anything new yet. It gives no hint until it has seen a few jobs finish.
 */
export class DurationLearner {
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly keep = 50,
    private readonly minSamples = 5,
  ) {}

  /** Records a job that this process saw finish (not one already finished when loaded or created). */
  observe(record: Timed | undefined): void {
    if (!record || record.finishedAt === null || record.remoteId === null || record.polls === 0) return;
    const key = keyOf(record);
    const list = this.seen.get(key) ?? [];
    list.push(record.finishedAt - record.createdAt);
    if (list.length > this.keep) list.shift();
    this.seen.set(key, list);
  }

  /** Jobs like this one rarely ended sooner than 90% of the 10th-percentile duration seen lately. */
  earliestEnd(record: Timed | undefined): number | undefined {
    const seen = record && this.seen.get(keyOf(record));
    if (!record || !seen || seen.length < this.minSamples) return undefined;
    const sorted = [...seen].sort((a, b) => a - b);
    return record.createdAt + 0.9 * sorted[Math.floor(sorted.length * 0.1)];
  }
}

function keyOf(record: Pick<JobRecord, 'kind' | 'connectionId'>): string {
  return `${record.connectionId}|${record.kind}`;
}
