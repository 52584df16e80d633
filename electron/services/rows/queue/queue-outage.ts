import { Redis } from 'ioredis';
import type { Logger } from '../../host/types';
import { redisTarget, type RedisTarget } from './redis-target';

/** What a connection says while Redis is gone, refuses it, or is not there. */
const CONNECTION_TROUBLE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|Connection is closed|connect|NOAUTH|WRONGPASS|LOADING/i;

/**
 * A queue's warnings about its Redis: one per outage, whichever of its connections hears of it first (each
 * retry of each connection errs again), one line when it answers again, and the password never in them.
 */
export class QueueOutage {
  private down = false;

  constructor(
    private readonly target: RedisTarget,
    private readonly queue: string,
    private readonly log?: Logger,
  ) {}

  /** A connection erred: said once per outage, or as it comes when it is not about the connection. */
  lost(error: unknown): void {
    if (!CONNECTION_TROUBLE.test(`${(error as { code?: unknown })?.code ?? ''} ${String(error)}`))
      return this.warn('the row queue met an error', error);
    if (this.down) return;
    this.down = true;
    this.warn('the row queue cannot reach Redis (trying again until it answers)', error);
  }

  back(): void {
    if (!this.down) return;
    this.down = false;
    this.log?.info('the row queue reaches Redis again', { queue: this.queue, redis: this.target.shown });
  }

  warn(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
    const text = error instanceof Error ? error.message : String(error);
    this.log?.warn(message, { ...fields, queue: this.queue, error: this.target.scrub(text) });
  }
}

/** The queue of takes' address, name, key prefix, warnings and own Redis client (row-takes.ts). */
export function queueClient(options: { url: string; prefix?: string; log?: Logger }) {
  const target = redisTarget(options.url);
  const name = 'studio-rows';
  const outage = new QueueOutage(target, name, options.log);
  const redis = new Redis(target.options);
  redis.on('error', (error: Error) => outage.lost(error));
  redis.on('ready', () => outage.back());
  return { target, name, prefix: options.prefix ?? 'studio', outage, redis };
}
