// jobs.page and jobs.totals as the page calls them: arguments checked by the dispatcher before the
// database is asked, a page answered with views and a cursor, totals counted by the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPage, JobTotals } from '../../../electron/common/bridge/jobs';
import { createDispatcher } from '../../../electron/services/host/dispatcher';
import { createDomains, type Domains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { removeTempDirs, tempDir } from '../records/ledger-fixtures';
import { seedJobs } from '../cli/many-jobs';

let domains: Domains;
let dispatch: ReturnType<typeof createDispatcher>;

beforeAll(() => {
  const dataDir = tempDir('studio-jobs-pages-');
  seedJobs(dataDir, 1_200);
  const base = createMemoryHostBase({ dataDir });
  domains = createDomains(base, { start: 'read-only' });
  dispatch = createDispatcher({ handlers: domains.handlers, log: base.log, redact: (t) => t });
});
afterAll(async () => {
  await domains?.disposeAll();
  removeTempDirs();
});

async function answer<T>(channel: string, ...args: unknown[]): Promise<T> {
  const outcome = await dispatch(channel, args);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value as T;
}

describe('jobs.page and jobs.totals', () => {
  it('answers a page of views with a cursor to the next, and totals by phase, kind and cost', async () => {
    const first = await answer<JobPage>('jobs.page', { limit: 100, filter: { kinds: ['avatar-video'] } });
    expect(first.jobs).toHaveLength(100);
    expect(first.jobs.every((job) => job.kind === 'avatar-video' && typeof job.progress === 'number')).toBe(true);
    const second = await answer<JobPage>('jobs.page', {
      limit: 100,
      filter: { kinds: ['avatar-video'] },
      after: first.next,
    });
    expect(second.jobs[0]!.createdAt).toBeLessThanOrEqual(first.jobs.at(-1)!.createdAt);
    expect(new Set([...first.jobs, ...second.jobs].map((job) => job.id)).size).toBe(200);

    const totals = await answer<JobTotals>('jobs.totals', {});
    expect(totals.count).toBe(1_200);
    expect(totals.byKind).toEqual({ tts: 800, 'avatar-video': 400 });
    expect(totals.byPhase).toEqual({ completed: 1_176, failed: 24 });
    // Failed ones were charged nothing; the others 1 credit a voiceover and 10 a video.
    const failed = { tts: 16, 'avatar-video': 8 };
    expect(totals.cost).toEqual({
      charged: (800 - failed.tts) * 1 + (400 - failed['avatar-video']) * 10,
      chargedByEstimate: 0,
      estimated: 0,
      unknown: 0,
    });
  });

  it('refuses arguments outside the schema before anything is read', async () => {
    for (const args of [
      [{ limit: 0 }],
      [{ limit: 501 }],
      [{ limit: 10, offset: 5, after: 'x' }],
      [{ limit: 10, sort: 'price' }],
      [{ limit: 10, filter: { kinds: ['podcast'] } }],
      [{ limit: 10, filter: { path: '/etc/passwd' } }],
      [{ limit: 10, filter: { search: 'x'.repeat(201) } }],
      [],
    ]) {
      const outcome = await dispatch('jobs.page', args);
      expect(outcome, JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    }
    expect(await dispatch('jobs.totals', [{ expiringWithinMs: -1 }])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    });
    // A cursor the host never wrote is refused by the host, in words.
    expect(await dispatch('jobs.page', [{ limit: 10, after: 'not-a-cursor' }])).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('start from the first page') },
    });
  });
});
