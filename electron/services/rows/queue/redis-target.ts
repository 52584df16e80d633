/** What both ioredis and BullMQ take to connect. */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  maxRetriesPerRequest: null;
  disconnectTimeout: number;
}

/**
 * A Redis the row engine's queue and shared records live in, read from a `redis://` or `rediss://` URL
 * (`redis://[user:password@]host:port[/db]`). The password is for the connection only: `shown` is the
 * URL without it, and `scrub` takes it out of any text on its way to a log (an error message included).
 */
export interface RedisTarget {
  /** ioredis options; `maxRetriesPerRequest: null`, as BullMQ's workers need (a command waits for Redis to come back). */
  options: RedisConnectionOptions;
  shown: string;
  scrub(text: string): string;
}

/**
 * How long a connection this studio closed may wait for Redis to close it in return before its socket is
 * destroyed. ioredis waits 2 s (a timer that holds the process): a studio stopped while its Redis had gone
 * sat out those 2 s after its orderly close, past the 5 s every host promises to stop in on a busy machine.
 */
const CLOSED_SOCKET_MS = 200;

export function redisTarget(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not echoed: a malformed address can still hold a password.
    throw new Error('The queue address is not a URL: give it as redis://HOST:PORT (or rediss:// for TLS).');
  }
  const secrets = [parsed.password, decodeURIComponent(parsed.password)].filter((s) => s.length > 0);
  const scrub = (text: string): string => secrets.reduce((out, secret) => out.split(secret).join('***'), text);
  parsed.password = '';
  const shown = parsed.toString().replace(/\/$/, '');
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new Error(`The queue address ${shown} is not a Redis URL: it must start with redis:// or rediss://.`);
  if (parsed.hostname === '') throw new Error(`The queue address ${shown} names no host.`);
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  const dbPath = parsed.pathname.replace(/^\//, '');
  const db = dbPath === '' ? 0 : Number(dbPath);
  if (!Number.isInteger(db) || db < 0)
    throw new Error(`The queue address ${shown} names database "${dbPath}": a database is a whole number.`);
  const password = secrets.at(-1);
  return {
    options: {
      host: parsed.hostname.replace(/^\[|\]$/g, ''),
      port,
      db,
      ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
      ...(password === undefined ? {} : { password }),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
      maxRetriesPerRequest: null,
      disconnectTimeout: CLOSED_SOCKET_MS,
    },
    shown,
    scrub,
  };
}

/** Where a vault keeps a queue's address with its password, by the address runs record (without it). */
export const queueVaultId = (shown: string): string => `queue:${shown}`;
