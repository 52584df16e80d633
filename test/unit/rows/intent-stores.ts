// The intent stores a create can be sent through, for tests that run the same case on each: one in this
// process (a fake of the shared record, as if every worker ran here), and Redis's, which workers share (one
// redis-server per test file, a key prefix per store made).
import { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import type { SentCharge } from '../../../electron/services/jobs/engine-types';
import {
  RedisCreateIntents,
  type CreateIntents,
  type IntentKey,
  type IntentRecord,
} from '../../../electron/services/rows/queue/create-intents';
import { redisPerFile } from '../../redis-per-file';

const keyText = (key: IntentKey): string => JSON.stringify([key.kind, key.runId, key.row, key.take, key.step]);

/** The intents in this process's memory: what Redis's keep, for engines that share this process. */
export class InProcessCreateIntents implements CreateIntents {
  private readonly claimed = new Map<string, IntentRecord>();

  async claim(key: IntentKey): Promise<boolean> {
    const text = keyText(key);
    if (this.claimed.has(text)) return false;
    this.claimed.set(text, { worker: null, at: new Date().toISOString() });
    return true;
  }

  async release(key: IntentKey): Promise<void> {
    this.claimed.delete(keyText(key));
  }

  async made(key: IntentKey, remoteId: string, charge?: SentCharge): Promise<void> {
    const earlier = this.claimed.get(keyText(key));
    if (earlier) this.claimed.set(keyText(key), { ...earlier, remoteId, charge });
  }

  async read(key: IntentKey): Promise<IntentRecord | null> {
    return this.claimed.get(keyText(key)) ?? null;
  }
}

/** Call at the top of a test file: each store made fresh per call, its Redis client closed after the test. */
export function intentStores(): [string, () => CreateIntents][] {
  const redis = redisPerFile();
  const clients: Redis[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.quit()));
  });
  let made = 0;
  return [
    ['in-process', () => new InProcessCreateIntents()],
    [
      'Redis',
      () => {
        const client = new Redis(redis().url);
        clients.push(client);
        made += 1;
        return new RedisCreateIntents(client, { prefix: `intents-${process.pid}-${made}` });
      },
    ],
  ];
}
