import type { JobPage, JobView } from '@common/bridge';
import type { JobPageQuery } from '@common/bridge/job-pages';
import { useStudioApi } from '@/bridge';
import { fakeApi } from '../library/fake-api';
import { fakePages } from '../library/fake-pages';

type Handler = (...args: unknown[]) => unknown;

/** A job as the host shows it, with what a test names changed. */
export const jobView = (over: Partial<JobView>): JobView => ({
  id: 'j1',
  kind: 'tts',
  phase: 'completed',
  remoteId: null,
  connectionId: 'c1',
  connectionName: 'Sandbox',
  projectId: null,
  summary: 'Speech',
  request: {},
  createdAt: 1_000,
  finishedAt: null,
  expiresAt: null,
  remoteStatus: null,
  resultUrl: null,
  costEstimate: null,
  chargedCredits: null,
  error: null,
  answer: null,
  purpose: { type: 'plain' },
  polls: 0,
  progress: 1,
  ...over,
});

const HOUR = 3_600_000;

/** A completed speech made an hour before `now`, its result kept 100 hours more: the Library's usual row. */
export const completedJobView = (id: string, over: Partial<JobView> = {}, now = Date.now()): JobView =>
  jobView({
    id,
    remoteId: `r-${id}`,
    connectionId: 'sandbox',
    summary: `Speech ${id}`,
    createdAt: now - HOUR,
    finishedAt: now - HOUR,
    expiresAt: now + 100 * HOUR,
    remoteStatus: 3,
    resultUrl: `https://x.test/${id}.mp3`,
    polls: 1,
    ...over,
  });

/**
 * The host's ledger of `jobs` behind window.studio: jobs.page answered as the database answers it
 * (library/fake-pages.ts), jobs.list not answered at all, and `push` telling the page (and the fake
 * host) of a change as the host's events do.
 */
export function jobHost(jobs: JobView[], handlers: Record<string, Handler> = {}) {
  const pages = fakePages({ 'jobs.list': () => jobs });
  // As the host pages: `next` only when more rows follow, and `after` continues from it.
  const page = async (query: JobPageQuery) => {
    const offset = query.after ? Number(query.after) : (query.offset ?? 0);
    const { after: _after, ...rest } = query;
    const answer = (await pages.handlers['jobs.page']({ ...rest, offset, limit: query.limit + 1 })) as JobPage;
    const more = answer.jobs.length > query.limit;
    return { jobs: answer.jobs.slice(0, query.limit), next: more ? String(offset + query.limit) : null };
  };
  const fake = fakeApi({ ...pages.handlers, 'jobs.page': (query) => page(query as JobPageQuery), ...handlers });
  useStudioApi(fake.api);
  return {
    calls: fake.calls,
    /** The page questions asked, in order. */
    asked: () => fake.calls.filter((c) => c.channel === 'jobs.page').map((c) => c.args[0] as JobPageQuery),
    /** Whether anything asked for every job. */
    askedForEveryJob: () => fake.calls.some((c) => c.channel === 'jobs.list'),
    push(event: 'jobs.changed' | 'jobs.removed', payload: JobView | { id: string }) {
      pages.follow(event, payload);
      fake.push(event, payload);
    },
  };
}
