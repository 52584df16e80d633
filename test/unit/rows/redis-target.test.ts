import { describe, expect, it } from 'vitest';
import { redisTarget } from '../../../electron/services/rows/queue/redis-target';

describe("a queue's Redis address", () => {
  it('gives the password to the connection only, and shows and scrubs the address without it', () => {
    const target = redisTarget('redis://worker:p%40ss-9x@redis.example:6380/2');
    expect(target.options).toMatchObject({
      host: 'redis.example',
      port: 6380,
      db: 2,
      username: 'worker',
      password: 'p@ss-9x',
      maxRetriesPerRequest: null,
    });
    expect(target.shown).toBe('redis://worker@redis.example:6380/2');
    expect(target.scrub('AUTH failed for p@ss-9x (p%40ss-9x)')).toBe('AUTH failed for *** (***)');
    expect(redisTarget('rediss://cache.example').options).toMatchObject({ port: 6379, db: 0, tls: {} });
  });

  it('names what is wrong with a bad address, never echoing its password', () => {
    expect(() => redisTarget('localhost:6379')).toThrow(/must start with redis:\/\/ or rediss:\/\//);
    expect(() => redisTarget('http://:hunter2@host:6379')).toThrow(/http:\/\/host:6379 is not a Redis URL/);
    expect(() => redisTarget('redis://:hunter2@host:6379/x')).toThrow(/database "x": a database is a whole number/);
    expect(() => redisTarget('not a url :hunter2')).toThrow(/is not a URL: give it as redis:\/\/HOST:PORT/);
    for (const bad of ['http://:hunter2@host:6379', 'redis://:hunter2@host:6379/x', 'not a url :hunter2'])
      expect(() => redisTarget(bad)).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
      );
  });
});
