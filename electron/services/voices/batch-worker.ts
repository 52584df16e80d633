import type { JobScope } from '../jobs/job-scope';
import type { JobRecord, JobView } from '../../common/bridge/jobs';
import type { RowMaker } from '../rows/queue/row-worker';
import { reportedJob } from '../rows/queue/run-shelf';
import type { BatchRows } from './batch-rows';
import type { BatchRecord, BatchRowRecord } from './batch-record';

/**
 * A worker's batch rows: each is made as a batch of one row on this worker's row engine (the same step as
 * any batch: its voiceover, paid once), then let go of. Its id names the queued batch, row and take, so a
 * worker that takes a row over writes the same intents as the one that began it. The row's job goes back
 * with the report, named as the queued batch's: the studio that queued it reads the result there and saves
 * the file (a batch's files are saved by its export, on the studio's machine).
 */
export function batchRowMaker(
  batches: BatchRows,
  ledger: (match: (job: JobRecord) => boolean, scope: JobScope) => JobView[],
): RowMaker {
  return {
    kind: 'batch',
    async make(queued, row, live) {
      const id = `${queued.id}-${row.row}-${row.take}`;
      const own = queued as Omit<BatchRecord, 'rows'>;
      const earlier = await batches.get(id);
      // Taken again after its run's pause: it goes on from its own record (its job, if any, is in the ledger),
      // under the queued batch's cap as it is now (raised, perhaps, before the resume).
      if (earlier?.state === 'paused') {
        await batches.setCap(id, own.maxCredits ?? null);
        await batches.resume(id);
      } else if (!earlier)
        await batches.create({
          ...own,
          id,
          invalid: [],
          reasons: {},
          queue: null,
          // The queued batch's cap (its `partOf`'s): one count in the queue's budget, for every worker's rows.
          partOf: queued.id,
          rows: [{ ...(row as BatchRowRecord), state: 'pending' }],
        });
      const rowJobs = () =>
        ledger((job) => job.purpose.type === 'batch-row' && job.purpose.batchId === id && reportedJob(job), {
          runId: id,
        }).map((job) => ({ ...job, purpose: { ...job.purpose, batchId: queued.id } }));
      batches.guard(id, live.running, (now) => live.progress(now, rowJobs));
      await batches.run(id);
      const record = await batches.get(id);
      const made = (record?.rows[0] ?? row) as BatchRowRecord;
      const jobs = rowJobs();
      if (record?.state === 'paused') return { outcome: 'paused', record: made, pause: record.pause ?? null, jobs };
      return { outcome: 'ended', record: made, jobs };
    },
    // Its report delivered, the row's one-row batch and its ended job leave memory (the ledger keeps the job).
    // A paused row's record stays: its job at the service still ends into it, and the next take replaces it.
    async delivered(queued, row, report) {
      if (report.outcome !== 'paused') await batches.forget(`${queued.id}-${row.row}-${row.take}`);
    },
  };
}
