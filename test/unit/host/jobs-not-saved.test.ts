// "Not saved" through the jobs domain: the host asks the downloads which jobs have a saved copy only
// when a filter needs it, and hands them to the query; a host that cannot know refuses rather than guess.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { createJobsDomain } from '../../../electron/services/jobs/jobs-domain';
import { SnapshotJobQueries } from '../../../electron/services/records/job-queries';
import { record } from '../records/ledger-fixtures';

const done = (id: string): JobRecord => ({ ...record(id, 'completed', 1), resultUrl: `https://x.test/${id}.mp4` });

function domain(savedJobIds?: () => Promise<readonly string[]>) {
  const queries = new SnapshotJobQueries(() => [done('job-1'), done('job-2'), record('job-3', 'failed', 1)]);
  const services = { jobs: { flush: async () => undefined }, queries, reactor: {}, batches: {} };
  return createJobsDomain(services as never, savedJobIds ? { savedJobIds } : {}).handlers;
}

describe('"Not saved" on the host', () => {
  it('asks the downloads for the saved jobs only when the filter needs them', async () => {
    let asked = 0;
    const handlers = domain(async () => ((asked += 1), ['job-2']));
    expect((await handlers['jobs.totals']({ saved: false })).count).toBe(1);
    const page = await handlers['jobs.page']({ limit: 10, filter: { saved: false } });
    expect(page.jobs.map((j) => j.id)).toEqual(['job-1']);
    expect(asked).toBe(2);
    expect((await handlers['jobs.totals']({})).count).toBe(3);
    expect(asked).toBe(2);
  });

  it('refuses "Not saved" where the copies are not known', async () => {
    await expect(domain()['jobs.totals']({ saved: false })).rejects.toThrow(/not known here/);
  });
});
