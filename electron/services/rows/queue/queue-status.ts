import { connect } from 'node:net';
import type { QueueCounts, QueueStatus } from '../../../common/bridge/queue-status';
import { redisTarget } from './redis-target';
import type { ConnectedWorker } from './queue-workers';
import { passwordPause, refusedByRedis } from './queue-password';

/**
 * A queue read that takes longer than this is answered as unreachable. The studio's Redis client waits
 * for a lost Redis to come back rather than failing a command, so without a limit the page's question
 * would hang for as long as Redis is gone.
 */
export const QUEUE_READ_GUARD_MS = 5_000;

/** What the status needs of the studio's queues. */
export interface QueueReads {
  workers(address: string): Promise<readonly ConnectedWorker[]>;
  counts(address: string): Promise<Record<string, number>>;
  /** Whether the studio keeps a queue's password across its restarts (its vault is persistent). */
  readonly keepsPasswords?: boolean;
}

/** A read of the queue, `checkedAt` on the reader's clock (a read shared by several askers keeps its own). */
type QueueRead = { checkedAt: number; counts: QueueCounts; workers: QueueStatus['workers'] };

/**
 * Answers where a run's rows are made (a campaign's or a batch's: one queue holds both) and, for a queue,
 * what it holds now. A queue that cannot be read is an answer with its reason, never a throw: the page
 * keeps showing the run either way.
 *
 * The studio's Redis client keeps a command for as long as Redis is gone, and a client holding one
 * cannot be closed (the studio's quit would wait on it). So a Redis that takes no connection is found
 * first with a plain connection of its own (`reach`), and the queue is not read; one that takes it and
 * then goes quiet is read once per address at a time, the page's next questions waiting on that read
 * instead of adding more.
 */
export function queueStatusReader(
  queues: QueueReads | undefined,
  {
    now,
    guardMs,
    reach = (address: string) => connectionProblem(address, guardMs),
  }: { now: () => number; guardMs: number; reach?: (address: string) => Promise<string | null> },
): (address: string | null) => Promise<QueueStatus> {
  const underWay = new Map<string, Promise<QueueRead>>();
  const readOnce = (address: string, reads: QueueReads, at: number): Promise<QueueRead> => {
    const known = underWay.get(address);
    if (known) return known;
    const read = readQueue(address, reads, at).finally(() => underWay.delete(address));
    underWay.set(address, read);
    return read;
  };
  return async (address) => {
    if (address === null) return { queue: null, checkedAt: now(), counts: null, workers: [], problem: null };
    const unread = (problem: string): QueueStatus => ({
      queue: address,
      checkedAt: now(),
      counts: null,
      workers: [],
      problem,
    });
    if (!queues) return unread('This studio cannot read queues.');
    const unreachable = await reach(address);
    if (unreachable !== null)
      return unread(`Redis at ${address} cannot be reached: ${unreachable}. Rows wait until it is back.`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), guardMs)));
    try {
      const read = await Promise.race([readOnce(address, queues, now()), late]);
      if (read === null)
        return unread(
          `Redis at ${address} did not answer within ${guardMs / 1000} s: it is busy, stopped answering, or is not Redis. Rows wait until it answers.`,
        );
      return { queue: address, problem: null, ...read };
    } catch (error) {
      return unread(refusal(address, error, queues.keepsPasswords ?? false));
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The queue's counts and workers, the workers' connections dated on the reader's clock (`at`). */
async function readQueue(address: string, reads: QueueReads, at: number): Promise<QueueRead> {
  const [counts, connected] = await Promise.all([reads.counts(address), reads.workers(address)]);
  return {
    checkedAt: at,
    counts: {
      // BullMQ keeps jobs with a priority apart from the plain waiting ones; to the user both wait.
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
    },
    workers: [...connected]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((w) => {
        const refuses = Object.entries(w.refuses ?? {}).map(([run, reason]) => ({ run, reason }));
        const connectedAt = at - w.secondsConnected * 1000;
        const worker = { name: w.id, host: w.host, connectedAt, running: w.running, done: w.done };
        return refuses.length > 0 ? { ...worker, refuses } : worker;
      }),
  };
}

/** Redis answered with a refusal: said in words, a password it asks for named as such. */
function refusal(address: string, error: unknown, keepsPasswords: boolean): string {
  const text = error instanceof Error ? error.message : String(error);
  if (refusedByRedis(text)) return `${passwordPause(address, keepsPasswords)} Redis said: ${text}`;
  return `Redis at ${address} could not be read: ${text}`;
}

/** Null when something takes a connection at the queue's host and port; else why nothing does, in words. */
export function connectionProblem(address: string, guardMs: number): Promise<string | null> {
  const { host, port } = redisTarget(address).options;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const settle = (problem: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => settle(`nothing answered at ${where} within ${guardMs / 1000} s`), guardMs);
    socket.once('connect', () => settle(null));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') settle(`nothing listens at ${where} (connection refused)`);
      else if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') settle(`the host ${host} is not known`);
      else settle(`${where}: ${error.code ?? error.message}`);
    });
  });
}
