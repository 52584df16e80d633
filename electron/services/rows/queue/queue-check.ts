import { RedisConnection } from 'bullmq';
import { Redis } from 'ioredis';
import { redisTarget } from './redis-target';

/**
 * The whole check's limit. The clients the queue runs on wait for a Redis that does not answer rather
 * than fail, so without a first look of its own a bad address or password showed as minutes of silence.
 */
export const QUEUE_CHECK_MS = 4_000;

/** What is wrong with a queue's Redis, in words an operator can act on (no password in them). */
export class QueueUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUnavailableError';
  }
}

export interface QueueCheck {
  /** Where it is, without the password. */
  shown: string;
  version: string;
  /** Not fatal, worth saying: an eviction policy that can drop queued rows. */
  warnings: string[];
}

const codeOf = (error: unknown): string =>
  error && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : '';

/** Reads `redis_version` (or a fork's own) and the eviction policy out of INFO's text. */
function infoFields(info: string): { version: string | null; policy: string | null } {
  const field = (name: string) => info.match(new RegExp(`^${name}:(.*)$`, 'm'))?.[1]?.trim() ?? null;
  return { version: field('valkey_version') ?? field('redis_version'), policy: field('maxmemory_policy') };
}

const older = (version: string, minimum: string): boolean => {
  const [a, b] = [version, minimum].map((v) => v.split('.').map((n) => Number.parseInt(n, 10) || 0));
  for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/** Turns what ioredis said into what is wrong, with the address (never the password) in it. */
function explain(shown: string, error: unknown, scrub: (text: string) => string): string {
  const text = scrub(error instanceof Error ? error.message : String(error));
  const code = codeOf(error);
  if (code === 'ECONNREFUSED') return `Nothing listens at ${shown} (connection refused): is Redis running there?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The queue's host in ${shown} is not known (${code}).`;
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(text))
    return `${shown} did not answer within ${QUEUE_CHECK_MS / 1000} s: no Redis there, a firewall, or a server that is not Redis.`;
  if (/WRONGPASS|invalid password|invalid username-password/i.test(text))
    return `Redis at ${shown} refused the password (${text.split('\n')[0]}): give the right one in STUDIO_QUEUE_URL or --queue-password-file.`;
  if (/NOAUTH|Authentication required/i.test(text))
    return `Redis at ${shown} needs a password: give it in STUDIO_QUEUE_URL (redis://:PASSWORD@HOST:PORT) or with --queue-password-file.`;
  if (/NOPERM/i.test(text)) return `Redis at ${shown} does not let this user do what a queue needs: ${text}`;
  if (/Protocol error|Unknown RESP|ParserError|reply type/i.test(text) || error?.constructor?.name === 'ParserError')
    return `What answers at ${shown} is not Redis (it does not speak Redis's protocol; an HTTP server, say).`;
  if (/Connection is closed|ECONNRESET|EPIPE/i.test(text) || code === 'ECONNRESET')
    return `What answers at ${shown} closed the connection without answering as Redis does: is it Redis, and is TLS (rediss://) right?`;
  return `The queue at ${shown} cannot be used: ${text}`;
}

/**
 * Looks at a queue's Redis once, before a worker or a run does anything else: that something answers at
 * the address, takes the password, speaks Redis's protocol and is a version BullMQ runs on. Settles within
 * about QUEUE_CHECK_MS either way, and throws a QueueUnavailableError saying what is wrong.
 */
export async function checkQueue(url: string, limitMs = QUEUE_CHECK_MS): Promise<QueueCheck> {
  const target = redisTarget(url);
  const redis = new Redis({
    ...target.options,
    lazyConnect: true,
    connectTimeout: limitMs,
    // One try: a retry would hide the reason behind the next attempt's.
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  // The last error the client saw: a command may fail only with "Connection is closed" after it.
  let seen: unknown = null;
  redis.on('error', (error: unknown) => (seen ??= error));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), limitMs);
  });
  try {
    const info = await Promise.race([
      (async () => {
        await redis.connect();
        return redis.info('server').then(async (server) => server + (await redis.info('memory')));
      })(),
      late,
    ]);
    const { version, policy } = infoFields(info);
    if (version === null)
      throw new QueueUnavailableError(`What answers at ${target.shown} does not say its Redis version.`);
    if (older(version, RedisConnection.minimumVersion))
      throw new QueueUnavailableError(
        `Redis at ${target.shown} is version ${version}; the queue (BullMQ) needs ${RedisConnection.minimumVersion} or later.`,
      );
    const warnings =
      policy !== null && policy !== 'noeviction'
        ? [
            `Redis at ${target.shown} evicts keys (maxmemory-policy ${policy}): when memory runs out it may drop queued rows; set it to noeviction.`,
          ]
        : [];
    return { shown: target.shown, version, warnings };
  } catch (error) {
    if (error instanceof QueueUnavailableError) throw error;
    const cause = /Connection is closed|Stream isn't writeable/i.test(String(error)) && seen ? seen : error;
    throw new QueueUnavailableError(explain(target.shown, cause, target.scrub));
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
