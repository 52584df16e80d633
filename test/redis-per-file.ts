// One real Redis for a test file: started before its first test, stopped after its last (also when a
// test failed: afterAll runs either way, and redis-server.ts kills what is left when the process exits).
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedis, type RedisServerOptions, type RunningRedis } from './redis-server';

export function redisPerFile(options: RedisServerOptions = {}): () => RunningRedis {
  let redis: RunningRedis | null = null;
  beforeAll(async () => {
    redis = await startRedis(options);
  });
  afterAll(async () => {
    await redis?.close();
  });
  return () => {
    if (!redis) throw new Error('Redis has not started (its beforeAll failed)');
    return redis;
  };
}

/**
 * Clients of a file's Redis, each of its own as a worker on another machine would have, all closed after
 * each test; and a key prefix of its own for each test, so nothing one test wrote reaches the next.
 */
export function redisClients(redis: () => RunningRedis): { client(): Redis; prefix(): string } {
  const clients: Redis[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.quit()));
  });
  let space = 0;
  return {
    client: () => {
      const made = new Redis(redis().url, { maxRetriesPerRequest: null });
      clients.push(made);
      return made;
    },
    prefix: () => `t${process.pid}-${(space += 1)}`,
  };
}
