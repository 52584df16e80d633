// "Not saved" through the jobs domain: the host says the downloads' table may be read only when a filter
// needs it (once the manager's changes are written), and the query reads it; a host that cannot know
// refuses rather than guess.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { createJobsDomain } from '../../../electron/services/jobs/jobs-domain';
import { queriesWithCopies } from '../records/download-fixtures';
import { record } from '../records/ledger-fixtures';

const done = (id: string): JobRecord => ({ ...record(id, 'completed', 1), resultUrl: `https://x.test/${id}.mp4` });

function domain(known?: () => Promise<{ savedInDownloads: boolean }>) {
  const queries = queriesWithCopies([done('job-1'), done('job-2'), record('job-3', 'failed', 1)], ['job-2'], 10);
  const services = { jobs: { flush: async () => undefined }, queries, reactor: {}, batches: {} };
  return createJobsDomain(services as never, known ? { known } : {}).handlers;
}

describe('"Not saved" on the host', () => {
  it('asks the downloads about their copies only when the filter needs them', async () => {
    let asked = 0;
    const handlers = domain(async () => ((asked += 1), { savedInDownloads: true }));
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
