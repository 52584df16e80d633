// The intent stores a create can be sent through, for tests that run the same case on each: the
// in-process one, and Redis's (one redis-server per test file, a key prefix per store made).
import { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import {
  InProcessCreateIntents,
  RedisCreateIntents,
  type CreateIntents,
} from '../../../electron/services/rows/queue/create-intents';
import { redisPerFile } from '../../redis-per-file';

/** Call at the top of a test file: each store made fresh per call, its Redis client closed after the test. */
export function intentStores(): [string, () => CreateIntents][] {
  const redis = redisPerFile();
  const clients: Redis[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.quit()));
  });
  let made = 0;
  return [
    ['in-process', () => new InProcessCreateIntents()],
    [
      'Redis',
      () => {
        const client = new Redis(redis().url);
        clients.push(client);
        made += 1;
        return new RedisCreateIntents(client, { prefix: `intents-${process.pid}-${made}` });
      },
    ],
  ];
}
