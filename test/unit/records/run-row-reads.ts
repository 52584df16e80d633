import { vi } from 'vitest';
import type { Sqlite } from '../../../electron/services/records/database';

/**
 * Counts each read of a run's rows on a connection from now on, as it runs rather than as its statement
 * is prepared: the records keep such a statement on the connection (records/database.ts keptStatement)
 * and prepare it once for every read after. Answers a function giving the reads since its last call.
 */
export function countRunRowReads(db: Sqlite): () => number {
  let reads = 0;
  const prepare = db.prepare.bind(db);
  vi.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
    const statement = prepare(sql);
    if (!/\brecord FROM run_rows\b/.test(sql)) return statement;
    // `all` runs through `iterate`: each execution is counted once.
    for (const method of ['get', 'iterate'] as const) {
      const run = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      statement[method] = ((...args: unknown[]) => ((reads += 1), run(...args))) as never;
    }
    return statement;
  }) as never);
  return () => {
    const since = reads;
    reads = 0;
    return since;
  };
}
