import type { Redis, RedisKey, RedisValue } from 'ioredis';

type Runner = (numberOfKeys: number, ...keysThenArgs: RedisValue[]) => Promise<unknown>;

/**
 * A Lua script sent the way ioredis means scripts to be sent: defined once on each client
 * (`defineCommand`), then run by its SHA1 (EVALSHA), its body sent again only when Redis no longer has
 * it (after a restart or SCRIPT FLUSH; ioredis answers the NOSCRIPT itself). A row runs a dozen
 * scripts (turns, account entries, its hold); sending every body each time was most of the bytes a
 * worker wrote to Redis, and Redis hashed each body again.
 */
export function redisScript(
  name: string,
  lua: string,
): (redis: Redis, keys: readonly RedisKey[], args: readonly RedisValue[]) => Promise<unknown> {
  const command = `studio_${name}`;
  return (redis, keys, args) => {
    const client = redis as unknown as Record<string, Runner | undefined>;
    // The number of keys is given on each call: some scripts take one key per pool of the row.
    if (typeof client[command] !== 'function') redis.defineCommand(command, { lua });
    return (client[command] as Runner).call(redis, keys.length, ...keys, ...args);
  };
}
