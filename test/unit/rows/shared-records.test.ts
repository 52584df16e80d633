import { describe, expect, it } from 'vitest';
import { RedisCreateIntents, type CreateIntents } from '../../../electron/services/rows/queue/create-intents';
import { InProcessCreateIntents } from './intent-stores';
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
