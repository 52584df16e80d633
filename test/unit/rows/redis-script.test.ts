// Scripts run by their SHA1: the body travels once per connection, and again only when Redis lost it.
import { describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { redisScript } from '../../../electron/services/rows/redis-script';
import { redisClients, redisPerFile } from '../../redis-per-file';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

const add = redisScript('test_add', `return redis.call('INCRBY', KEYS[1], ARGV[1]) + #KEYS`);

/** How many times Redis ran a command, from its own statistics. */
async function calls(on: Redis, command: 'eval' | 'evalsha'): Promise<number> {
  const stats = await on.info('commandstats');
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
}

describe('a Redis script', () => {
  it('sends its body once on a connection, then only its SHA1', async () => {
    const on = client();
    const [evals, shas] = [await calls(on, 'eval'), await calls(on, 'evalsha')];
    const key = `${prefix()}:n`;
    for (let i = 0; i < 5; i += 1) await add(on, [key], [2]);
    expect(await on.get(key)).toBe('10');
    expect((await calls(on, 'eval')) - evals).toBe(1);
    expect((await calls(on, 'evalsha')) - shas).toBe(4);
  });

  it('sends its body again when Redis no longer has it, and takes a different number of keys on each call', async () => {
    const on = client();
    const [one, other] = [`${prefix()}:a`, `${prefix()}:b`];
    expect(await add(on, [one], [1])).toBe(2);
    await on.script('FLUSH');
    // One key more: the answer counts them.
    expect(await add(on, [one, other], [1])).toBe(4);
    expect(await on.get(one)).toBe('2');
  });
});
