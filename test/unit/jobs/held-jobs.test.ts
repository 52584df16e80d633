import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { HeldJobs } from '../../../electron/services/jobs/held-jobs';
import { inScope } from '../../../electron/services/jobs/job-scope';
import { isActivePhase } from '../../../electron/common/jobs/phases';
import { record } from '../records/ledger-fixtures';

/** A job of run `run` (null: of none) and row `row`, with a version so a replacement is a new object. */
function job(
  id: string,
  run: string | null,
  row: number,
  version: number,
  resultUrl: string | null = null,
  phase: JobRecord['phase'] = 'completed',
): JobRecord {
  const purpose = run === null ? { type: 'plain' } : { type: 'campaign-row', campaignId: run, row, step: 'video' };
  return { ...record(id, phase, version), purpose, resultUrl } as JobRecord;
}

/** A small deterministic generator, so a failure can be played again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ids = (records: Iterable<JobRecord>) => [...records].map((r) => `${r.id}@${r.createdAt}`).sort();

describe("the engine's jobs held in memory", () => {
  it("answer a run's, a row's, a link's or the active jobs as a look at every job would, through adds, replacements and removals", () => {
    const held = new HeldJobs();
    const next = random(7);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
    const runs = ['a', 'b', null] as const;
    const links = ['https://r/1.mp4', 'https://r/2.mp4', null] as const;
    const phases = ['submitting', 'processing', 'completed', 'failed'] as const;
    for (let step = 0; step < 3_000; step += 1) {
      const id = `j${Math.floor(next() * 60)}`;
      const action = next();
      // A replacement may move a job to another run or row: the index must follow, not keep it twice.
      if (action < 0.6) held.set(id, job(id, pick(runs), Math.floor(next() * 5), step, pick(links), pick(phases)));
      else if (action < 0.95) held.delete(id);
      else if (action < 0.96) held.clear();
      for (const run of ['a', 'b']) {
        const all = [...held.values()];
        expect(ids(held.ofRun(run))).toEqual(ids(all.filter((r) => inScope({ runId: run }, r))));
        const row = Math.floor(next() * 5);
        expect(ids(held.ofRun(run, row))).toEqual(ids(all.filter((r) => inScope({ runId: run, row }, r))));
      }
      for (const link of links.slice(0, 2))
        expect(ids(held.withLink(link as string))).toEqual(ids([...held.values()].filter((r) => r.resultUrl === link)));
      expect(ids(held.active())).toEqual(ids([...held.values()].filter((r) => isActivePhase(r.phase))));
    }
    expect(held.size).toBeGreaterThan(0);
  });
});
