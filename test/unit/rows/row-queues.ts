// The queues the row engine can run on, for tests that run the same scenario on each of them so the two
// cannot drift: the in-process default and BullMQ over a real Redis (one redis-server per test file).
import { afterEach } from 'vitest';
import { BullmqRowQueue } from '../../../electron/services/rows/bullmq-row-queue';
import { InProcessRowQueue, type RowQueue } from '../../../electron/services/rows/row-queue';
import { redisPerFile } from '../../redis-per-file';

export interface RowQueueCase {
  name: string;
  make(): RowQueue;
  /** Settles once what was pushed and dropped so far has reached the queue. */
  landed(queue: RowQueue): Promise<void>;
}

let made = 0;

/** Call at the top of a test file: both queues, each made fresh per test and closed after it. */
export function rowQueueCases(): RowQueueCase[] {
  const redis = redisPerFile();
  const open: BullmqRowQueue[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((queue) => queue.close(true)));
  });
  return [
    { name: 'in-process', make: () => new InProcessRowQueue(), landed: async () => undefined },
    {
      name: 'BullMQ on Redis',
      make: () => {
        made += 1;
        // A queue of its own per test: nothing one test left can reach the next.
        const queue = new BullmqRowQueue({ url: redis().url, name: `rows-${process.pid}-${made}` });
        open.push(queue);
        return queue;
      },
      landed: (queue) => (queue instanceof BullmqRowQueue ? queue.settled() : Promise.resolve()),
    },
  ];
}
