import type { Redis } from 'ioredis';
import { rowName, runName, runPool } from '../../../electron/services/jobs/row-holds';
import { RedisBudget } from '../../../electron/services/rows/money/redis-budget';

/**
 * Holds a queued row on the queue's Redis as its studio does before it hands the row over (a worker
 * makes only a row held there). The holder lives while the test runs.
 */
export async function holdRow(redis: Redis, prefix: string, kind: string, runId: string, row: number): Promise<void> {
  const pool = runPool(runName(kind, runId));
  await new RedisBudget(redis, prefix).hold(rowName(kind, runId, row), 0, [{ pool, room: null }]);
}
