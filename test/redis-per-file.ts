// One real Redis for a test file: started before its first test, stopped after its last (also when a
// test failed: afterAll runs either way, and redis-server.ts kills what is left when the process exits).
import { afterAll, beforeAll } from 'vitest';
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
