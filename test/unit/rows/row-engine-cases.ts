// The intents to create a row engine can run with, for tests that run the same scenario with each so the
// two cannot drift: in memory (a fake of the shared record), and in a real Redis (one redis-server per test
// file) with the worker's name on each, as a `studio worker` runs its rows.
// Queued runs themselves (the takes at the queue) have tests of their own: take-queue.test.ts and others.
import { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import { RedisCreateIntents, type CreateIntents } from '../../../electron/services/rows/queue/create-intents';
import { InProcessCreateIntents } from './intent-stores';
import { redisPerFile } from '../../redis-per-file';

export interface RowEngineCase {
  name: string;
  /** The intents to create for a row engine, fresh for each call. */
  deps(): { intents: CreateIntents };
}

let made = 0;

/** Call at the top of a test file: both cases, their Redis clients closed after each test. */
export function rowEngineCases(): RowEngineCase[] {
  const redis = redisPerFile();
  const clients: Redis[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.quit()));
  });
  return [
    { name: 'intents in memory', deps: () => ({ intents: new InProcessCreateIntents() }) },
    {
      name: "a worker's, intents in Redis",
      deps: () => {
        made += 1;
        const client = new Redis(redis().url, { maxRetriesPerRequest: null });
        clients.push(client);
        // A key prefix of its own per call: nothing one test left can reach the next.
        return { intents: new RedisCreateIntents(client, { prefix: `rows-${process.pid}-${made}`, worker: 'w1' }) };
      },
    },
  ];
}
