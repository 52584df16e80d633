// Issue 64: the web host said "the row queue cannot reach Redis" every few seconds while Redis was gone.
// The queue's connections (its own, BullMQ's queue and worker) each err at every try to reconnect; the
// log says it once when Redis goes and once when it answers again, for each outage.
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../electron/services/host/types';
import { BullmqRowQueue } from '../../../electron/services/rows/queue/bullmq-row-queue';
import { redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';
import { redisPassage, type RedisPassage } from '../cli/queue-processes';

const redis = redisPerFile();

const lines: string[] = [];
const log: Logger = {
  debug: () => undefined,
  info: (message) => lines.push(message),
  warn: (message) => lines.push(message),
  error: (message) => lines.push(message),
};
const count = (text: string) => lines.filter((line) => line.includes(text)).length;

let passage: RedisPassage | null = null;
let queue: BullmqRowQueue | null = null;
afterAll(async () => {
  await queue?.close(true);
  await passage?.close();
});

describe('a row queue whose Redis goes and comes back', () => {
  it('says so once per outage, not at every try to reconnect', async () => {
    passage = await redisPassage(redis().port);
    queue = new BullmqRowQueue({ url: `redis://127.0.0.1:${passage.port}`, prefix: `outage${process.pid}`, log });
    let steps = 0;
    queue.start(async () => {
      steps += 1;
    });
    queue.push({ kind: 'k', runId: 'r', row: 1 });
    await until('the first step', () => steps === 1);

    for (let outage = 1; outage <= 2; outage += 1) {
      const before = passage.refused();
      await passage.cut();
      // Many tries, by every connection: each used to be a warning of its own.
      await until('the queue to try Redis again and again', () => passage!.refused() >= before + 8);
      await passage.mend();
      await until('the queue to reach Redis again', () => count('reaches Redis again') === outage);
      expect(count('cannot reach Redis'), lines.join('\n')).toBe(outage);
    }
    // And it works on: a row pushed after the outages is made.
    queue.push({ kind: 'k', runId: 'r', row: 2 });
    await until('a step after the outages', () => steps === 2);
    expect(count('cannot reach Redis'), lines.join('\n')).toBe(2);
  }, 300_000);
});
