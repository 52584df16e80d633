import type { Redis } from 'ioredis';
import type { Budget } from '../../jobs/budget';
import type { RunState } from '../engine/row-kind';
import type { RowTakes } from './row-takes';
import type { RunShelf } from './run-shelf';

/** One Redis a studio sends runs to: its queue of takes (handed to, never taken from here), the runs' records. */
export interface QueueLink {
  takes: RowTakes;
  redis: Redis;
  shelf: RunShelf;
  /** Where the rows of the queue's runs are held (the spending gate's), shared by every studio sending to it. */
  budget: Budget;
  /** Runs whose record is in Redis, and the state it says. */
  states: Map<string, RunState>;
  /** Runs (`kind/runId`) whose takes this process follows on the queue's events. */
  following: Set<string>;
  /** The queue's events read from (settled once they are): one reading for every run on the queue. */
  events: Promise<void> | null;
  /** Redis out of reach since the last warning: it is said once, not at every retry. */
  down: boolean;
  /** Pauses the runs followed on this queue once it has been out of reach for QUEUE_LOST_PAUSE_MS. */
  lost: ReturnType<typeof setTimeout> | null;
  /** Why the runs were paused, while the queue is still out of reach: a run followed since pauses too. */
  lostSaid: string | null;
}
