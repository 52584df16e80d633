import { Redis } from 'ioredis';
import type { CredentialVault } from '../services/host/types';
import { queueVaultId, redisTarget } from '../services/rows/redis-target';
import { SharedTurns } from '../services/rows/shared-turns';
import { UsageError, flag, type CliIo, type ParsedArgs } from './command';

/**
 * The queue a command sends to or works from: `--queue URL`, else STUDIO_QUEUE_URL. A password is best
 * given in the environment (a command line is seen by every process on the machine): `--queue` without
 * one takes it from STUDIO_QUEUE_URL when both name the same queue.
 */
export function queueUrlOf(args: ParsedArgs, io: CliIo): string | undefined {
  const given = flag(args, '--queue');
  const fromEnv = io.env.STUDIO_QUEUE_URL?.trim() || undefined;
  if (given === undefined) return fromEnv;
  try {
    const target = redisTarget(given);
    if (fromEnv && given === target.shown && redisTarget(fromEnv).shown === target.shown) return fromEnv;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return given;
}

/** The command line's vault, which also knows the queue of STUDIO_QUEUE_URL with its password. */
export function withQueueSecret(vault: CredentialVault, env: CliIo['env']): CredentialVault {
  const url = env.STUDIO_QUEUE_URL?.trim();
  let id: string | null = null;
  try {
    id = url ? queueVaultId(redisTarget(url).shown) : null;
  } catch {
    id = null;
  }
  if (!url || id === null) return vault;
  return {
    protection: vault.protection,
    persistent: vault.persistent,
    set: (key, secret) => vault.set(key, secret),
    get: async (key) => (await vault.get(key)) ?? (key === id ? url : undefined),
    has: async (key) => (await vault.has(key)) || key === id,
    delete: (key) => vault.delete(key),
  };
}

/**
 * Runs a command that queues a run with a service fetch whose requests (balance readings, voice lists)
 * take the turns the queue's workers publish: on their own they would crowd the rate the workers share
 * and be refused. Without a queue, the command's own fetch.
 */
export async function withQueueTurns<T>(
  url: string | undefined,
  work: (serviceFetch: typeof globalThis.fetch | undefined) => Promise<T>,
): Promise<T> {
  if (url === undefined) return work(undefined);
  const redis = new Redis({ ...redisTarget(url).options, lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    return await work(new SharedTurns(redis, { perSecond: 'published' }).fetch());
  } finally {
    redis.disconnect();
  }
}
