// The jobs store never holds every job: each question is a filtered page of the host's, kept current
// by the host's news (a change, a removal, the user's own submission).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { JobPage, JobView } from '@common/bridge';
import type { JobPageQuery } from '@common/bridge/job-pages';
import { useStudioApi } from '@/bridge';
import { useJobsStore } from '@/stores/jobs';
import { ASK_AGAIN_MS, LiveJobQuery, MOST_READ, matchesFilter, type JobQuerySpec } from '@/stores/job-query';
import { jobHost, jobView } from './job-host';

const ids = (rows: readonly JobView[]) => rows.map((j) => j.id);
const speech: JobQuerySpec = { name: 'speech', filter: { kinds: ['tts'], phases: ['completed'] }, limit: 2 };

describe('the jobs store', () => {
  beforeEach(() => setActivePinia(createPinia()));
  afterEach(() => {
    vi.useRealTimers();
    useStudioApi(undefined);
  });

  it("asks the host for a question's page, shares it between views, and lets it go with the last", async () => {
    const host = jobHost([
      jobView({ id: 'old', createdAt: 1 }),
      jobView({ id: 'new', createdAt: 3 }),
      jobView({ id: 'mid', createdAt: 2 }),
      jobView({ id: 'lip', kind: 'lipsync', createdAt: 4 }),
    ]);
    const store = useJobsStore();
    const first = store.hold(speech);
    const second = store.hold(speech);
    await flushPromises();
    expect(host.asked()).toEqual([{ filter: speech.filter, limit: 2 }]);
    expect(ids(first.query.rows.value)).toEqual(['new', 'mid']);
    expect(second.query).toBe(first.query);
    first.release();
    second.release();
    store.hold(speech);
    await flushPromises();
    expect(host.asked()).toHaveLength(2);
    expect(host.askedForEveryJob()).toBe(false);
  });

  it('puts live news in place: a new job at the top, a change where it is, one that stops matching out', async () => {
    vi.useFakeTimers();
    const host = jobHost([
      jobView({ id: 'a', createdAt: 1 }),
      jobView({ id: 'b', createdAt: 2 }),
      jobView({ id: 'c', createdAt: 3 }),
    ]);
    const { query } = useJobsStore().hold(speech);
    await flushPromises();
    expect(ids(query.rows.value)).toEqual(['c', 'b']);
    host.push('jobs.changed', jobView({ id: 'd', createdAt: 4 }));
    expect(ids(query.rows.value)).toEqual(['d', 'c']);
    host.push('jobs.changed', jobView({ id: 'x', kind: 'lipsync', createdAt: 5 }));
    host.push('jobs.changed', jobView({ id: 'old', createdAt: 0 }));
    expect(ids(query.rows.value)).toEqual(['d', 'c']);
    host.push('jobs.changed', jobView({ id: 'c', createdAt: 3, summary: 'renamed' }));
    expect(query.rows.value[1].summary).toBe('renamed');
    // A row that leaves a question the host holds more of: asked again, and the next one takes its place.
    host.push('jobs.changed', jobView({ id: 'd', createdAt: 4, phase: 'failed' }));
    expect(ids(query.rows.value)).toEqual(['c']);
    await vi.advanceTimersByTimeAsync(ASK_AGAIN_MS);
    expect(ids(query.rows.value)).toEqual(['c', 'b']);
    host.push('jobs.removed', { id: 'c' });
    await vi.advanceTimersByTimeAsync(ASK_AGAIN_MS);
    expect(ids(query.rows.value)).toEqual(['b', 'a']);
  });

  it('shows what it sent at once, and follows its news', async () => {
    const sent = jobView({ id: 'mine', phase: 'queued', createdAt: 9, progress: 0 });
    const host = jobHost([], { 'jobs.submit': () => ({ status: 'submitted', job: sent }) });
    const store = useJobsStore();
    const { query } = store.hold({ ...speech, filter: { kinds: ['tts'] } });
    await flushPromises();
    await store.submitWithConfirm(
      { kind: 'tts', body: { input_text: 'Hi', voice_id: 'v' }, confirmation: { by: 'user', credits: null } },
      async () => true,
    );
    expect(ids(query.rows.value)).toEqual(['mine']);
    expect(store.byId.get('mine')?.phase).toBe('queued');
    host.push('jobs.changed', { ...sent, phase: 'completed', progress: 1 });
    expect(store.byId.get('mine')?.phase).toBe('completed');
    expect(query.rows.value[0].phase).toBe('completed');
  });

  it('puts news heard while a page was on its way over that page', async () => {
    let answer: (page: JobPage) => void = () => undefined;
    const query = new LiveJobQuery(speech, () => new Promise<JobPage>((resolve) => (answer = resolve)));
    const loading = query.load();
    query.offer(jobView({ id: 'b', createdAt: 2, summary: 'newer' }));
    query.drop('a');
    answer({ jobs: [jobView({ id: 'b', createdAt: 2 }), jobView({ id: 'a', createdAt: 1 })], next: null });
    await loading;
    expect(ids(query.rows.value)).toEqual(['b']);
    expect(query.rows.value[0].summary).toBe('newer');
  });

  it('reads pages, newest first, until a question with `keep` has its jobs, and never more than MOST_READ', async () => {
    const all = Array.from({ length: 5_000 }, (_, i) => jobView({ id: `j${i}`, createdAt: 5_000 - i }));
    const asked: JobPageQuery[] = [];
    const ask = async (q: JobPageQuery): Promise<JobPage> => {
      asked.push(q);
      const from = q.after ? Number(q.after) : 0;
      const jobs = all.slice(from, from + q.limit);
      return { jobs, next: from + q.limit < all.length ? String(from + q.limit) : null };
    };
    const every100th = new LiveJobQuery(
      { name: 'some', filter: {}, limit: 5, keep: (j) => Number(j.id.slice(1)) % 100 === 0 },
      ask,
    );
    await every100th.load();
    expect(ids(every100th.rows.value)).toEqual(['j0', 'j100', 'j200', 'j300', 'j400']);
    expect(asked.map((q) => q.after ?? null)).toEqual([null, '200', '400']);
    const none = new LiveJobQuery({ name: 'none', filter: {}, limit: 5, keep: () => false }, ask);
    asked.length = 0;
    await none.load();
    expect(asked.reduce((n, q) => n + q.limit, 0)).toBe(MOST_READ);
  });

  it('checks a live job as the host filters', () => {
    const job = jobView({ kind: 'tts', phase: 'queued', projectId: 'p', connectionId: 'c1', createdAt: 50 });
    expect(matchesFilter(job, { kinds: ['tts'], phases: ['queued'], projectId: 'p', connectionId: 'c1' })).toBe(true);
    expect(matchesFilter(job, { projectId: null })).toBe(false);
    expect(matchesFilter(job, { createdFrom: 51 })).toBe(false);
    expect(matchesFilter(job, { createdBefore: 50 })).toBe(false);
    expect(matchesFilter(job, { ids: ['other'] })).toBe(false);
    expect(matchesFilter(job, { kinds: [] })).toBe(true);
  });
});
