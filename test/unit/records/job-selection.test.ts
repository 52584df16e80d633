// The questions the paged Library asks beside pages: "Not saved" answered by the database from the
// downloads' table beside the jobs, a hand-picked selection narrowed by a filter, the ids of
// "all but these" read without the records, and the cost per project and batch.
import { describe, expect, it } from 'vitest';
import { totalCost, type JobRecord } from '../../../electron/common/bridge/jobs';
import { SnapshotJobQueries } from '../../../electron/services/records/job-queries';
import { queriesWithCopies } from './download-fixtures';
import { record } from './ledger-fixtures';

const NOW = 1_800_000_000_000;

function jobs(): JobRecord[] {
  const done = (id: string, over: Partial<JobRecord> = {}): JobRecord => ({
    ...record(id, 'completed', NOW - Number(id.slice(4)) * 1000),
    resultUrl: `https://x.test/${id}.mp4`,
    ...over,
  });
  return [
    done('job-1'),
    done('job-2'),
    done('job-3', { projectId: 'p1', chargedCredits: 4, chargeSource: 'service' }),
    // Steps of another job: nobody is asked to save them.
    done('job-4', { purpose: { type: 'scene-voiceover', projectId: 'p1', sceneId: 's1' } as JobRecord['purpose'] }),
    done('job-5', {
      purpose: { type: 'campaign-row', campaignId: 'c1', row: 1, step: 'voiceover', take: 0 },
    }),
    // A campaign row's video is a result of its own.
    done('job-6', { purpose: { type: 'campaign-row', campaignId: 'c1', row: 1, step: 'video', take: 0 } }),
    // No link: nothing to save.
    done('job-7', { resultUrl: null }),
    {
      ...record('job-8', 'failed', NOW - 8000),
      projectId: 'p1',
      purpose: { type: 'batch-row', batchId: 'b1', row: 0 },
      costEstimate: { credits: 2, basis: 'b' },
      remoteId: 'r8',
    },
    { ...record('job-9', 'queued', NOW - 9000), purpose: { type: 'batch-row', batchId: 'b1', row: 1 } },
  ];
}

const queries = () =>
  new SnapshotJobQueries(
    () => jobs(),
    () => NOW,
  );
const ids = (page: { jobs: { id: string }[] }) => page.jobs.map((j) => j.id);
const known = { savedInDownloads: true };

describe('the Library questions the host answers', () => {
  it('finds the completed results with no saved copy, from the downloads recorded beside the jobs', () => {
    // job-1's download failed and its copy is in the command line's old queue: not saved in the studio.
    const q = queriesWithCopies(jobs(), ['job-2', 'job-8', 'elsewhere'], NOW, ['job-1']);
    expect(ids(q.page({ limit: 50, filter: { saved: false } }, known))).toEqual(['job-1', 'job-3', 'job-6']);
    expect(ids(q.page({ limit: 50, filter: { saved: true } }, known))).toEqual(['job-2']);
    expect(q.totals({ saved: false }, known).count).toBe(3);
    // Nothing saved: every result of its own is "Not saved", never a step or a job without a link.
    expect(queriesWithCopies(jobs(), [], NOW).totals({ saved: false }, known).count).toBe(4);
    // Asked where the downloads are not known (a reader that does not hold them), it refuses rather than guess.
    expect(() => q.page({ limit: 5, filter: { saved: false } })).toThrow(/not known here/);
    // A snapshot of records in memory holds no downloads: told otherwise, it still refuses.
    expect(() => queries().page({ limit: 5, filter: { saved: false } }, known)).toThrow(/not known here/);
  });

  it('narrows a hand-picked selection by the rest of the filter', () => {
    const q = queries();
    const picked = { ids: ['job-1', 'job-8', 'job-9', 'gone'] };
    expect(ids(q.page({ limit: 50, filter: picked }))).toEqual(['job-1', 'job-8', 'job-9']);
    expect(q.totals({ ...picked, phases: ['failed'] }).count).toBe(1);
    // A search also finds the jobs of the projects whose names it matches (the page knows the names).
    expect(ids(q.page({ limit: 50, filter: { search: 'zzz', searchProjectIds: ['p1'] } }))).toEqual(['job-3', 'job-8']);
    expect(q.totals({ search: 'zzz' }).count).toBe(0);
  });

  it('reads the ids of "all but these" in the order shown, up to a limit', () => {
    const q = queries();
    const all = { filter: { phases: ['completed' as const] }, except: ['job-2', 'job-5'] };
    expect(q.ids(all, 100)).toEqual(['job-1', 'job-3', 'job-4', 'job-6', 'job-7']);
    expect(q.ids({ ...all, descending: false }, 2)).toEqual(['job-7', 'job-6']);
    const copies = queriesWithCopies(jobs(), ['job-1'], NOW);
    expect(copies.ids({ filter: { saved: false } }, 100, known)).toEqual(['job-2', 'job-3', 'job-6']);
  });

  it('sums the cost per project and per batch as totalCost does', () => {
    const q = queries();
    const totals = q.totals({}, {}, { groups: true });
    const p1 = totals.projects?.find((p) => p.id === 'p1');
    const inP1 = jobs().filter((j) => j.projectId === 'p1');
    expect(p1).toMatchObject({ count: inP1.length, since: Math.min(...inP1.map((j) => j.createdAt)) });
    expect(p1?.cost).toEqual(totalCost(inP1));
    const b1 = totals.batches?.find((b) => b.id === 'b1');
    expect(b1?.cost).toEqual(totalCost(jobs().filter((j) => j.purpose?.type === 'batch-row')));
    // Asked for without them, the sums per group are not read.
    expect(q.totals({}).projects).toBeUndefined();
    // A campaign is not a batch.
    expect(totals.batches?.map((b) => b.id)).toEqual(['b1']);
    // A filter that reads the records sums in one pass: the same sums, per project and batch too.
    const notSaved = queriesWithCopies(jobs(), [], NOW).totals({ saved: false }, known, { groups: true });
    const shown = jobs().filter((j) => ['job-1', 'job-2', 'job-3', 'job-6'].includes(j.id));
    expect(notSaved.cost).toEqual(totalCost(shown));
    expect(notSaved.projects).toEqual([{ id: 'p1', count: 1, since: NOW - 3000, cost: totalCost(inP1.slice(0, 1)) }]);
    expect(notSaved.batches).toEqual([]);
    const searched = q.totals({ search: 's' }, {}, { groups: true });
    expect(searched.count).toBe(jobs().length);
    expect(searched.batches).toEqual(totals.batches);
    expect(searched.projects).toEqual(totals.projects);
  });

  it('walks a selection by keyset pages: the same ids as one read, in order, those left out dropped', () => {
    const q = queries();
    for (const sort of ['created', 'kind', 'phase', 'cost'] as const) {
      const selection = { filter: {}, sort, descending: sort !== 'cost', except: ['job-3'] };
      const walked: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page = q.idPage(selection, after, 2);
        walked.push(...page.ids);
        after = page.next;
        pages += 1;
      } while (after !== null && pages < 20);
      expect(walked).toEqual(q.ids(selection, 100));
      expect(walked).not.toContain('job-3');
      expect(pages).toBe(5);
    }
  });
});
