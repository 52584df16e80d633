import { describe, expect, it } from 'vitest';
import {
  InProcessCreateIntents,
  RedisCreateIntents,
  type CreateIntents,
} from '../../../electron/services/rows/queue/create-intents';
import { InProcessDaySpending, type DaySpending } from '../../../electron/services/jobs/day-spending';
import { RedisDaySpending } from '../../../electron/services/rows/money/day-spending';
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

const day = { connectionId: 'c1', day: '2026-11-25' };

describe.each([
  {
    name: 'in-process',
    pair: (): [DaySpending, DaySpending] => {
      const one = new InProcessDaySpending();
      return [one, one];
    },
  },
  {
    name: 'Redis',
    pair: (): [DaySpending, DaySpending] => {
      const p = prefix();
      return [new RedisDaySpending(client(), p), new RedisDaySpending(client(), p)];
    },
  },
])("the day's spending ($name)", ({ pair }) => {
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
    expect(await b.spent({ ...day, day: '2026-11-26' })).toBe(0);
  });
});
