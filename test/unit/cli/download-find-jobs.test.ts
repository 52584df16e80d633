// `studio download` asks the studio for the jobs it names, never for every job: an id's candidates by
// its start, the completed jobs of --kind and --since by the database's filter, a page at a time.
import { describe, expect, it } from 'vitest';
import { findJobs } from '../../../electron/cli/commands/download';
import type { StudioLink } from '../../../electron/cli/studio-link';
import type { JobPageQuery, JobView } from '../../../electron/common/bridge/jobs';

const NOW = 10_000_000;
const job = (id: string, over: Partial<JobView> = {}) =>
  ({ id, remoteId: null, kind: 'tts', phase: 'completed', createdAt: NOW - 1_000, ...over }) as JobView;

/** A studio answering jobs.page over `jobs` as the database does (filter, newest first, a cursor), recording the calls. */
function studioOver(jobs: JobView[]) {
  const asked: { channel: string; query?: JobPageQuery }[] = [];
  const studio = {
    async call(channel: string, query: JobPageQuery) {
      asked.push({ channel, query });
      if (channel !== 'jobs.page') throw new Error(`not answered here: ${channel}`);
      const f = query.filter ?? {};
      const left = jobs
        .filter(
          (j) =>
            (!f.kinds || f.kinds.includes(j.kind)) &&
            (!f.phases || f.phases.includes(j.phase)) &&
            (f.createdFrom === undefined || j.createdAt >= f.createdFrom) &&
            (f.idStartsWith === undefined || j.id.startsWith(f.idStartsWith)),
        )
        .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
      const from = query.after ? Number(query.after) : 0;
      const end = from + query.limit;
      return { jobs: left.slice(from, end), next: end < left.length ? String(end) : null };
    },
  } as unknown as StudioLink;
  return { studio, asked };
}

const args = (positional: string[], flags: Record<string, string | true>) => ({ positional, flags });

describe('the jobs studio download chooses', () => {
  it('asks for the completed jobs of --kind and --since a page at a time, never every job', async () => {
    const many = Array.from({ length: 1_200 }, (_, i) => job(`t${String(i).padStart(4, '0')}`, { createdAt: NOW - i }));
    const { studio, asked } = studioOver([
      ...many,
      job('old', { createdAt: NOW - 5_000_000 }),
      job('lip', { kind: 'lipsync' }),
      job('run', { phase: 'processing' }),
    ]);
    const chosen = await findJobs(studio, args([], { '--kind': 'tts', '--since': '1h' }), NOW);
    expect(chosen.map((j) => j.id)).toEqual(many.map((j) => j.id));
    expect(asked.map((a) => a.channel)).toEqual(['jobs.page', 'jobs.page', 'jobs.page']);
    expect(asked[0].query?.filter).toEqual({ phases: ['completed'], kinds: ['tts'], createdFrom: NOW - 3_600_000 });
    expect(asked.map((a) => a.query?.after ?? null)).toEqual([null, '500', '1000']);
  });

  it('finds a job named by the start of its id among the jobs starting so, in any phase', async () => {
    const { studio, asked } = studioOver([job('abc123', { phase: 'failed' }), job('abd999'), job('zzz')]);
    expect((await findJobs(studio, args(['abc'], {}), NOW)).map((j) => j.id)).toEqual(['abc123']);
    expect(asked.map((a) => a.query?.filter)).toEqual([{ idStartsWith: 'abc' }]);
    await expect(findJobs(studio, args(['ab'], {}), NOW)).rejects.toThrow(/matches 2 jobs/);
    await expect(findJobs(studio, args(['nope'], {}), NOW)).rejects.toThrow(/No job matches "nope"/);
  });

  it('refuses what it refused before asking anything', async () => {
    const { studio, asked } = studioOver([job('a')]);
    await expect(findJobs(studio, args([], {}), NOW)).rejects.toThrow(/Give job ids, or --all/);
    await expect(findJobs(studio, args([], { '--kind': 'movie' }), NOW)).rejects.toThrow(/--kind must be one of/);
    await expect(findJobs(studio, args(['a'], { '--all': true }), NOW)).rejects.toThrow(/not both/);
    expect(asked).toEqual([]);
  });
});
