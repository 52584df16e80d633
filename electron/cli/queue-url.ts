import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import type { CredentialVault } from '../services/host/types';
import { checkQueue } from '../services/rows/queue/queue-check';
import { queueVaultId, redisTarget } from '../services/rows/queue/redis-target';
import type { RequestLimiter } from '../services/client/limiter';
import { RedisLimiter } from '../services/rows/rate/redis-limiter';
import { UsageError, flag, type CliIo, type CliOption, type ParsedArgs } from './command';

/** `--queue-password-file FILE`: the queue's password from a file only its owner can read. */
export const QUEUE_PASSWORD_FILE_OPTION: CliOption = {
  name: '--queue-password-file',
  value: 'FILE',
  help: "the queue's password, read from FILE (only its owner may read it: chmod 600), for a --queue or STUDIO_QUEUE_URL given without one",
};

/** A password file longer than this is not a password (a wrong path, say): refused rather than sent. */
const PASSWORD_FILE_MAX = 4_096;

const hasPassword = (url: string): boolean => {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
};

/**
 * The password in FILE, which only its owner may read or write: a password others can read is no
 * longer a secret, so such a file is refused, as ssh refuses a key others can read.
 */
function passwordFrom(path: string): string {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    throw new UsageError(`--queue-password-file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!stat.isFile()) throw new UsageError(`--queue-password-file ${path} is not a file.`);
  const mode = (stat.mode & 0o777).toString(8).padStart(3, '0');
  if ((stat.mode & 0o077) !== 0)
    throw new UsageError(
      `--queue-password-file ${path} can be read or changed by other users (mode ${mode}): make it yours alone (chmod 600 ${path}).`,
    );
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
    throw new UsageError(`--queue-password-file ${path} belongs to another user: use a file of your own (chmod 600).`);
  if (stat.size > PASSWORD_FILE_MAX)
    throw new UsageError(`--queue-password-file ${path} holds ${stat.size} bytes: it should hold the password alone.`);
  // One line; the line end an editor adds is not part of the password.
  const password = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  if (password === '' || password.includes('\n'))
    throw new UsageError(`--queue-password-file ${path} should hold the password alone, on one line.`);
  return password;
}

/**
 * The queue a command sends to or works from: `--queue URL`, else STUDIO_QUEUE_URL. A command line is
 * seen by every process on the machine, so `--queue` may not hold a password: it comes from
 * `--queue-password-file`, or from STUDIO_QUEUE_URL when that names the same queue.
 */
export function queueUrlOf(args: ParsedArgs, io: CliIo): string | undefined {
  const given = flag(args, '--queue');
  const fromEnv = io.env.STUDIO_QUEUE_URL?.trim() || undefined;
  const passwordFile = flag(args, '--queue-password-file');
  let shown: string | undefined;
  try {
    shown = given === undefined ? undefined : redisTarget(given).shown;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (given !== undefined && hasPassword(given))
    throw new UsageError(
      `--queue holds a password, which every user of this machine can read in the process list. Give the address alone (--queue ${shown}) and the password in the environment, STUDIO_QUEUE_URL=redis://:PASSWORD@HOST:PORT, or in a file only you can read, named with --queue-password-file FILE.`,
    );
  const base = given ?? fromEnv;
  if (passwordFile !== undefined) {
    if (base === undefined)
      throw new UsageError('--queue-password-file needs the queue it is for: --queue redis://HOST:PORT');
    const url = new URL(base);
    url.password = encodeURIComponent(passwordFrom(resolve(io.cwd, passwordFile)));
    return url.toString();
  }
  if (given !== undefined && fromEnv && redisTarget(fromEnv).shown === shown) return fromEnv;
  return base;
}

/**
 * Looks at the queue's Redis before a command does anything else (reach, password, that it is Redis and
 * new enough): what is wrong is said at once, and the command exits 4 (unavailable) with nothing priced,
 * sent or recorded. What merely deserves a word (an eviction policy) goes to stderr.
 */
export async function checkedQueue(url: string, io?: CliIo): Promise<void> {
  const checked = await checkQueue(url);
  for (const warning of checked.warnings) io?.err(warning);
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
 * How long a turn's command waits for Redis's answer. ioredis keeps a command that was on its way when
 * the connection dropped and sends it again once it reconnects, which is never when Redis has gone: the
 * request waiting for that turn (a balance reading the run's next row waited for) then waited for ever,
 * and the command could not quit. A turn is answered in milliseconds; past this the request goes on at
 * its own pace, as it does when Redis refuses at once.
 */
export const TURN_COMMAND_TIMEOUT_MS = 3_000;

/** The connection the command line's requests take their turns on: a command fails rather than wait on a Redis gone. */
export function turnsConnection(url: string): Redis {
  const redis = new Redis({
    ...redisTarget(url).options,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: TURN_COMMAND_TIMEOUT_MS,
  });
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Runs a command that queues a run, once its queue passed `checkedQueue`, with a limiter whose requests
 * (balance readings, voice lists) take the turns the queue's workers publish: on their own they would
 * crowd the rate the workers share and be refused. Without a queue, each connection's own limiter.
 */
export async function withQueueTurns<T>(
  url: string | undefined,
  work: (limiter: RequestLimiter | undefined) => Promise<T>,
): Promise<T> {
  if (url === undefined) return work(undefined);
  await checkedQueue(url);
  const redis = turnsConnection(url);
  try {
    return await work(new RedisLimiter(redis, { perSecond: 'published' }));
  } finally {
    redis.disconnect();
  }
}
