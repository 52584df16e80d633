// The Voices page's list of batches over a folder holding one batch of N rows and a job per row (issue
// 68): the time of `batches.list` and what the host's memory does, as it is (rows counted and jobs
// summed by the database) and as it was (the batch read whole and viewed against its jobs read from
// the ledger, as the engine read them). Each way runs in a process of its own on the same folder.
// Run alone: node --import tsx test/bench/batches-list.measure.ts [rows]   (default 100,000).
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { toJobView } from '../../electron/services/jobs/job-view';
import { SqlJobQueries } from '../../electron/services/records/job-queries';
import { openRecords } from '../../electron/services/records/open-ledger';
import type { Sqlite } from '../../electron/services/records/database';
import { RowEngine } from '../../electron/services/rows/engine/row-engine';
import { batchRuns, type BatchRowRecord } from '../../electron/services/voices/batch-record';
import { BatchRows } from '../../electron/services/voices/batch-rows';
import { summariseBatch } from '../../electron/services/voices/batch-view';
import { HandService } from '../unit/campaign/hand-service';
import { record } from '../unit/records/ledger-fixtures';
import { listWays, timeListing, type ListWay } from './list-ways';

const PHASES: JobRecord['phase'][] = ['completed', 'completed', 'completed', 'failed', 'processing'];

/** The folder: one batch of `rows` rows, each with its job in the ledger. */
async function make(dataDir: string, rows: number): Promise<void> {
  const records = openRecords(dataDir);
  for (let row = 0; row < rows; row += 1) {
    const phase = PHASES[row % PHASES.length] as JobRecord['phase'];
    void records.ledger.put({
      ...record(`job-${row}`, phase, 1_000 + row),
      remoteId: `r${row}`,
      chargedCredits: phase === 'completed' ? 1 : null,
      purpose: { type: 'batch-row', batchId: 'big', row },
    });
    if (row % 5_000 === 4_999) await records.ledger.flush();
  }
  await records.ledger.flush();
  const states: BatchRowRecord['state'][] = ['done', 'done', 'done', 'failed', 'speech'];
  await batchRuns(records.runs).putRun({
    version: 1,
    id: 'big',
    label: 'big.csv',
    createdAt: 1,
    invalid: [],
    state: 'running',
    concurrency: 2,
    retry: [],
    template: '{row}',
    rows: Array.from({ length: rows }, (_, row) => ({
      row,
      text: `Line ${row} of the batch, a sentence of ordinary length.`,
      voiceId: 'sandbox_ava',
      rate: '100%',
      name: null,
      state: states[row % states.length] as BatchRowRecord['state'],
      take: 0,
      problems: [],
    })),
  });
  await records.runs.flush();
}

/** One way of listing, in this process: its time, and the host's memory before and after. */
async function list(dataDir: string, way: ListWay): Promise<void> {
  const records = openRecords(dataDir);
  const jobs = Object.assign(new HandService(), {
    list: (_match: unknown, scope?: { runId?: string }) =>
      records.ledger.find({ runId: scope?.runId ?? '' }).map((r) => toJobView(r, Date.now())),
  });
  const batches = new BatchRows({
    queries: new SqlJobQueries(records.ledger.queryable() as Sqlite),
    rows: new RowEngine({ jobs }),
    runs: records.runs,
    subscribe: () => () => undefined,
  });
  const call = async () =>
    way === 'summaries'
      ? batches.summaries()
      : (await batches.list()).map((batch) => summariseBatch(batches.view(batch)));
  await timeListing(way, call);
}

void listWays({ run: 'batch', make, list });
