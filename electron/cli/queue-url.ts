import type { CredentialVault } from '../services/host/types';
import { queueVaultId, redisTarget } from '../services/rows/redis-target';
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
