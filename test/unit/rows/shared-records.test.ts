import { describe, expect, it } from 'vitest';
import { RedisCreateIntents, type CreateIntents } from '../../../electron/services/rows/queue/create-intents';
import { InProcessCreateIntents } from './intent-stores';
import { InProcessBudget, type Budget } from '../../../electron/services/jobs/budget';
import { RedisBudget } from '../../../electron/services/rows/money/redis-budget';
import { redisClients, redisPerFile } from '../../redis-per-file';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

const key = { kind: 'campaign', runId: 'c:1', row: 3, take: 0, step: 'voiceover/s1' };

describe.each([
  {
    name: 'in-process',
    // One process's record, shared by its rows (the in-process intents are of this process alone).
    pair: (): [CreateIntents, CreateIntents] => {
      const one = new InProcessCreateIntents();
      return [one, one];
    },
  },
  {
    name: 'Redis',
    pair: (): [CreateIntents, CreateIntents] => {
      const p = prefix();
      return [new RedisCreateIntents(client(), { prefix: p }), new RedisCreateIntents(client(), { prefix: p })];
    },
  },
])('the intents to create ($name)', ({ pair }) => {
  it('let one attempt at a create through, and the next only once the first gave it back', async () => {
    const [first] = pair();
    expect(await first.claim(key)).toBe(true);
    expect(await first.claim(key)).toBe(false);
    // Another take or another step is another create.
    expect(await first.claim({ ...key, take: 1 })).toBe(true);
    expect(await first.claim({ ...key, step: 'video' })).toBe(true);
    await first.release(key);
    expect(await first.claim(key)).toBe(true);
  });

  it('let exactly one of two workers claiming at once through', async () => {
    const [a, b] = pair();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).claim(key)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });
});

const day = 'day:c1:2026-11-25';

describe.each([
  {
    name: 'in-process',
    pair: (): [Budget, Budget] => {
      const one = new InProcessBudget();
      return [one, one];
    },
  },
  {
    name: 'Redis',
    pair: (): [Budget, Budget] => {
      const p = prefix();
      return [new RedisBudget(client(), p), new RedisBudget(client(), p)];
    },
  },
])('the budget ($name)', ({ pair }) => {
  it('admits creates reserved at once by two workers only while the total stays within the limit', async () => {
    const [a, b] = pair();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).reserve(day, 3, 20)));
    expect(answers.filter((r) => r.admitted)).toHaveLength(6);
    expect(await a.spent(day)).toBe(18);
    // An unknown price goes while some of the limit is left, and not once none is.
    expect((await b.reserve(day, null, 20)).admitted).toBe(true);
    await a.add(day, 2.5);
    expect((await b.reserve(day, null, 20)).admitted).toBe(false);
    // A create refused before anything was made gives its price back.
    await a.add(day, -3);
    expect(await b.spent(day)).toBe(17.5);
    expect(await b.spent('day:c1:2026-11-26')).toBe(0);
  });

  it('counts what the records hold (the base) against the limit, beside what it reserved', async () => {
    const [a, b] = pair();
    expect((await a.reserve('cap:r1', 4, 10, 5)).admitted).toBe(true);
    expect((await b.reserve('cap:r1', 2, 10, 5)).admitted).toBe(false);
    expect((await b.reserve('cap:r1', 1, 10, 5)).admitted).toBe(true);
    expect((await a.reserve('cap:r1', null, 10, 5)).admitted).toBe(false);
    expect(await a.spent('cap:r1')).toBe(5);
  });
});
