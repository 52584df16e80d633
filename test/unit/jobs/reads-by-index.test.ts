// The engine's reads that come once per row of a run (a report taken in, a row's video saved from its
// link) look at that row's or that link's jobs, never at every job held: a studio following a run of
// thousands of rows holds thousands of jobs, and a look through all of them at each row made the run's
// intake quadratic (a profile of 3,000 queued rows: 38 s of the studio's main thread in these two looks).
import { describe, expect, it } from 'vitest';
import type { JobRecord, JobView } from '../../../electron/common/bridge/jobs';
import { HeldJobs } from '../../../electron/services/jobs/held-jobs';
import { LedgerReads } from '../../../electron/services/jobs/ledger-reads';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import { receivedKeys } from '../../../electron/services/jobs/engine-helpers';
import type { JobScope } from '../../../electron/services/jobs/job-scope';
import { record } from '../records/ledger-fixtures';

const ROWS = 500;

function rowJob(row: number): JobRecord {
  return {
    ...record(`j${row}`, 'completed', row),
    remoteId: `r${row}`,
    resultUrl: `https://results/${row}.mp4`,
    purpose: { type: 'campaign-row', campaignId: 'c', row, step: 'video', take: 0 },
  } as JobRecord;
}

/** Held jobs that count the records handed out by a look through all of them. */
class CountedHeld extends HeldJobs {
  looked = 0;
  override *values(): MapIterator<JobRecord> {
    for (const value of super.values()) {
      this.looked += 1;
      yield value;
    }
  }
}

function heldRun(): { held: CountedHeld; reads: LedgerReads } {
  const held = new CountedHeld();
  for (let row = 0; row < ROWS; row += 1) held.set(`j${row}`, rowJob(row));
  return { held, reads: new LedgerReads(new MemoryLedgerStorage(), held, { giveBack: () => undefined }) };
}

describe("the engine's reads once per row", () => {
  it("find a job by its result link through the link's index, not a look at every job held", () => {
    const { held, reads } = heldRun();
    expect(reads.find({ resultUrl: 'https://results/321.mp4' }).map((j) => j.id)).toEqual(['j321']);
    expect(held.looked).toBe(0);
    // Anything else not by run still looks through them all (the look the index stands in for).
    expect(reads.find({ remoteIds: ['r7'] }).map((j) => j.id)).toEqual(['j7']);
    expect(held.looked).toBe(ROWS);
  });

  it("take in a report by its row's jobs, not its run's", () => {
    const { held, reads } = heldRun();
    const asked: JobScope[] = [];
    const records = (scope: JobScope) => (asked.push(scope), reads.find(scope));
    const report = [rowJob(42), { ...rowJob(42), id: 'new', remoteId: 'fresh' }] as unknown as JobView[];
    const known = receivedKeys(report, records);
    expect(asked.map((s) => [s.runId, s.row])).toEqual([['c', 42]]);
    // The row's own job is known; a job the row had not recorded is new, once.
    expect(known.firstTime(report[0] as JobView, 'h')).toBe(false);
    expect(known.firstTime(report[1] as JobView, 'h')).toBe(true);
    expect(known.firstTime(report[1] as JobView, 'h')).toBe(false);
    expect(held.looked).toBe(0);
  });
});
