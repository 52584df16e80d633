import { z } from 'zod';

// What a page reads of the queue a run's rows are made on: the same answer for a campaign and a batch,
// since both kinds of run share one queue at an address.

/** A worker connected to a queue now (Redis lists its connection), with what it last said of itself. */
export const QueueWorker = z.object({
  name: z.string(),
  /** Its machine's name; empty until it has said anything. */
  host: z.string(),
  /** Since when its connection to the queue is open (ms since the epoch, on the host's clock, to the second). */
  connectedAt: z.number(),
  /** Rows it is making now, and rows it has made since it started. */
  running: z.number().int(),
  done: z.number().int(),
  /** Runs whose rows it gives back unmade (`kind/runId`), and why: another account, another service, no credentials. */
  refuses: z.array(z.object({ run: z.string(), reason: z.string() })).optional(),
});
export type QueueWorker = z.infer<typeof QueueWorker>;

/** How many of the queue's jobs wait, run, wait for a retry's delay, or failed and are kept for review. */
export const QueueCounts = z.object({
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int(),
});
export type QueueCounts = z.infer<typeof QueueCounts>;

/**
 * Where a run's rows are made, and for a queue what it holds now. The counts and the workers are the
 * whole queue's (every campaign and batch sent to that Redis), not one run's: its own rows by state are
 * in the run's view.
 */
export const QueueStatus = z.object({
  /** The queue's address without its password; null: the rows are made on this computer (nothing else is read). */
  queue: z.string().nullable(),
  /** The host's clock when it read the queue, so the page measures how long workers have been there against one clock. */
  checkedAt: z.number(),
  /** Null when the queue could not be read (`problem` says why) or there is no queue. */
  counts: QueueCounts.nullable(),
  workers: z.array(QueueWorker),
  /** Why the queue could not be read (Redis unreachable, a password it refused); null: read. */
  problem: z.string().nullable(),
});
export type QueueStatus = z.infer<typeof QueueStatus>;
