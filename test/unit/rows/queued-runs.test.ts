// The starting studio's side of queued runs, against a real Redis: a queue's password kept in the
// vault for the studio's next start (the run's record holds the address without it), and a studio that
// quits while the Redis it used has gone.
import { afterEach, describe, expect, it } from 'vitest';
import { QueuedRuns } from '../../../electron/services/rows/queue/queued-runs';
import { startRedis, type RunningRedis } from '../../redis-server';
import { until } from '../../wait';

const started: RunningRedis[] = [];
const open: QueuedRuns[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((runs) => runs.close()));
  await Promise.all(started.splice(0).map((redis) => redis.close()));
});

/** A vault as the studio's: secrets by id, kept between two QueuedRuns as between two starts. */
function memoryVault() {
  const kept = new Map<string, string>();
  return {
    kept,
    get: async (id: string) => kept.get(id),
    set: async (id: string, secret: string) => void kept.set(id, secret),
  };
}

const runsWith = (options: ConstructorParameters<typeof QueuedRuns>[0] = {}) => {
  const runs = new QueuedRuns(options);
  open.push(runs);
  return runs;
};

describe('queued runs in the starting studio', () => {
  it("keeps a queue's password in the vault, so the studio opened again still reaches the queue", async () => {
    const redis = await startRedis({ password: 'pw-of-the-queue' });
    started.push(redis);
    const vault = memoryVault();
    const shown = runsWith({ vault }).address(redis.url);
    expect(shown).not.toContain('pw-of-the-queue');
    await until('the password in the vault', () => vault.kept.size === 1);
    // The next start knows the run's address only as shown; the vault gives it the password.
    await expect(runsWith({ vault }).workers(shown)).resolves.toEqual([]);
    // Without the vault the same address is refused by Redis: the password is what made the difference.
    await expect(runsWith().workers(shown)).rejects.toThrow(/NOAUTH|auth/i);
  });

  it('quits at once even when the Redis it used has gone with a command still waiting', async () => {
    const redis = await startRedis();
    const runs = new QueuedRuns();
    const shown = runs.address(redis.url);
    await runs.workers(shown);
    await redis.close();
    // A question to the gone Redis waits for it; the close must not.
    void runs.workers(shown).catch(() => undefined);
    await runs.close();
  }, 60_000);

  // A command that paused on its queue printed its pause and then never exited: a question asked after
  // the close (the queue's status, its workers) opened a connection the close never saw, and that
  // connection, trying a Redis that had gone, kept the process alive.
  it('opens no connection after its close: a question then is refused at once', async () => {
    const redis = await startRedis();
    started.push(redis);
    const runs = new QueuedRuns();
    const shown = runs.address(redis.url);
    await runs.close();
    await expect(runs.counts(shown)).rejects.toThrow('the studio is quitting');
    await expect(runs.workers(shown)).rejects.toThrow('the studio is quitting');
  });
});
