// Batches as a host composes them, for tests and benches that run batches alone: a row engine and a
// reactor of their own on the given job engine (the studio's host builds one row engine for batches and
// campaigns together: host/studio-services.ts).
import { JobReactor, type ReactorEngine } from '../../../electron/services/jobs/reactor';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import type { RowJobs } from '../../../electron/services/rows/engine/row-kind';
import { BatchRows, type BatchRowsDeps } from '../../../electron/services/voices/batch-rows';

export function createBatchRows(
  host: Omit<BatchRowsDeps, 'rows' | 'subscribe'> & {
    engine: RowJobs & ReactorEngine & Pick<BatchRowsDeps, 'subscribe'>;
  },
): { batches: BatchRows; reactor: JobReactor } {
  const { engine, ...rest } = host;
  const rows = new RowEngine({ jobs: engine, log: host.log });
  const reactor = new JobReactor({ engine, log: host.log });
  reactor.on('batch-row', (job) => rows.jobEnded(job));
  reactor.start();
  return { batches: new BatchRows({ ...rest, rows, subscribe: (listener) => engine.subscribe(listener) }), reactor };
}
