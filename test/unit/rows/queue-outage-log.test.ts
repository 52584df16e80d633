// Issue 64: the web host said "the row queue cannot reach Redis" every few seconds while Redis was gone.
// The queue of takes has several connections (its own, BullMQ's queue, its worker and the events a studio
// follows), and each errs at every try to reconnect; the log says it once when Redis goes and once when
// it answers again, for each outage, naming the address and never the password.
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../electron/services/host/types';
import { RowTakes } from '../../../electron/services/rows/queue/row-takes';
import { redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';
import { redisPassage, type RedisPassage } from '../cli/queue-processes';

const PASSWORD = 'outage-secret-8k2m';
const redis = redisPerFile({ password: PASSWORD });

/** Every line the queue logs, fields included. */
const lines: string[] = [];
const log: Logger = {
  debug: () => undefined,
  info: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  warn: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  error: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
};
const count = (text: string) => lines.filter((line) => line.includes(text)).length;

let passage: RedisPassage | null = null;
let takes: RowTakes | null = null;
afterAll(async () => {
  await takes?.closeWithin(0);
  await passage?.close();
});

const take = (row: number) => ({ kind: 'k', runId: 'r', row: { row, state: 'pending', take: 0, problems: [] } });

describe('a queue of takes whose Redis goes and comes back', () => {
  it('says so once per outage, not at every try to reconnect', async () => {
    passage = await redisPassage(redis().port);
    takes = new RowTakes({
      url: `redis://:${PASSWORD}@127.0.0.1:${passage.port}`,
      prefix: `outage${process.pid}`,
      log,
    });
    const made: number[] = [];
    // A worker's side and a studio's (the queue's events it follows), on the one queue.
    takes.start(async ({ row }) => {
      made.push(row.row);
      return { row: row.row, take: 0, outcome: 'ended', record: { ...row, state: 'done' }, worker: 'w1' };
    });
    await takes.follow(() => undefined);
    await takes.hand(take(1));
    await until('the first take', () => made.length === 1);

    for (let outage = 1; outage <= 2; outage += 1) {
      const before = passage.refused();
      await passage.cut();
      // Many tries, by every connection: each used to be a warning of its own.
      await until('the queue to try Redis again and again', () => passage!.refused() >= before + 8);
      await passage.mend();
      await until('the queue to reach Redis again', () => count('reaches Redis again') === outage);
      expect(count('cannot reach Redis'), lines.join('\n')).toBe(outage);
    }
    // And it works on: a take handed after the outages is made.
    await takes.hand(take(2));
    await until('a take after the outages', () => made.length === 2);
    expect(count('cannot reach Redis'), lines.join('\n')).toBe(2);
    expect(
      lines.filter((line) => line.includes('reaches Redis again') && line.includes(`127.0.0.1:${passage!.port}`)),
    ).toHaveLength(2);
    expect(lines.filter((line) => line.includes(PASSWORD))).toEqual([]);
  }, 300_000);
});
