// Issue 67: one budget. A queued campaign's cap ("stop after N credits") is held by the spending gate of
// every worker that makes its rows, on one counter in the queue's Redis: two workers, each with its own
// row engine, spending gate and Redis client, together never reserve past it, and both pause at it with
// no row failed. Real Redis.
import { describe, expect, it } from 'vitest';
import type { Budget } from '../../../electron/services/jobs/budget';
import { RedisBudget } from '../../../electron/services/rows/money/redis-budget';
import { InProcessCreateIntents } from '../rows/intent-stores';
import { redisClients, redisPerFile } from '../../redis-per-file';
import { setup } from './hand-campaign';

const { client, prefix } = redisClients(redisPerFile());

/**
 * Each worker makes six rows of the queued campaign `queued` (its rows' runs name it, as a worker's do),
 * each create expected at 2 credits, under the campaign's cap of 11: room for five creates between both.
 */
async function twoWorkersAtTheCap(budgets: [Budget, Budget]) {
  const workers = budgets.map((budget) => setup({ intents: new InProcessCreateIntents(), budget }, 6, 6));
  const runs = await Promise.all(
    workers.map(async ({ engine, runner, record }) => {
      Object.assign(engine, { expectedCredits: async () => 2 });
      await runner.create({ ...record, partOf: 'queued', maxCredits: 11 });
      return runner.run('hand');
    }),
  );
  for (let i = 0; i < 6; i += 1) {
    await Promise.all(workers.map((w) => w.settle()));
    for (const w of workers) w.engine.endAll();
  }
  const ended = await Promise.all(runs);
  return { created: workers.reduce((n, w) => n + w.engine.created().length, 0), ended };
}

describe("two workers on one Redis, each with a client of its own (a queued campaign's cap)", () => {
  it('stop together at the cap they share, never past it, with no row failed', async () => {
    const p = prefix();
    const one = new RedisBudget(client(), p);
    const { created, ended } = await twoWorkersAtTheCap([one, new RedisBudget(client(), p)]);
    expect(created).toBe(5);
    for (const run of ended) {
      expect(run.state).toBe('paused');
      expect(run.pause?.reason).toBe('cap');
      expect(run.rows.filter((r) => r.state === 'failed')).toEqual([]);
    }
    // What was made, at its charge (2 each): the counter every worker reserves on.
    expect(await one.spent('cap:campaign/queued')).toBe(10);
  });
});
