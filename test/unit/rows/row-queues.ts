// The queues the row engine can run on, for tests that run the same scenario on each of them so the two
// cannot drift: the in-process default, and BullMQ over a real Redis (one redis-server per test file)
// with the intents to create in that Redis too, as workers on several machines would share them.
import { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import { BullmqRowQueue } from '../../../electron/services/rows/queue/bullmq-row-queue';
import { InProcessCreateIntents, RedisCreateIntents } from '../../../electron/services/rows/queue/create-intents';
import type { RowEngineDeps } from '../../../electron/services/rows/engine/row-engine';
import { InProcessRowQueue, type RowQueue } from '../../../electron/services/rows/engine/row-queue';
import { redisPerFile } from '../../redis-per-file';

export interface RowQueueCase {
  name: string;
  make(): RowQueue;
  /** A queue and the intents to create that go with it, for a row engine. */
  deps(): Required<Pick<RowEngineDeps, 'queue' | 'intents'>>;
  /** Settles once what was pushed and dropped so far has reached the queue. */
  landed(queue: RowQueue): Promise<void>;
}

let made = 0;

/** Call at the top of a test file: both queues, each made fresh per test and closed after it. */
export function rowQueueCases(): RowQueueCase[] {
  const redis = redisPerFile();
  const open: BullmqRowQueue[] = [];
  const clients: Redis[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((queue) => queue.close(true)));
    await Promise.all(clients.splice(0).map((client) => client.quit()));
  });
  // A queue and a key prefix of its own per test: nothing one test left can reach the next.
  const bullmq = () => {
    made += 1;
    const queue = new BullmqRowQueue({ url: redis().url, name: `rows-${process.pid}-${made}` });
    open.push(queue);
    return queue;
  };
  return [
    {
      name: 'in-process',
      make: () => new InProcessRowQueue(),
      deps: () => ({ queue: new InProcessRowQueue(), intents: new InProcessCreateIntents() }),
      landed: async () => undefined,
    },
    {
      name: 'BullMQ on Redis',
      make: bullmq,
      deps: () => {
        const queue = bullmq();
        const client = new Redis(redis().url, { maxRetriesPerRequest: null });
        clients.push(client);
        return { queue, intents: new RedisCreateIntents(client, { prefix: queue.queue.name }) };
      },
      landed: (queue) => (queue instanceof BullmqRowQueue ? queue.settled() : Promise.resolve()),
    },
  ];
}
