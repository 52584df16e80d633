import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { watch } from 'vue';
import type { DownloadView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { useDownloadsStore } from '@/stores/downloads';
import { fakeApi } from './fake-api';

const entry = (n: number, over: Partial<DownloadView> = {}): DownloadView =>
  ({
    id: `d${n}`,
    jobId: `j${n}`,
    state: 'queued',
    createdAt: 1,
    updatedAt: 1,
    ...over,
  }) as DownloadView;

describe('the downloads store', () => {
  afterEach(() => {
    vi.useRealTimers();
    useStudioApi(undefined);
  });

  it('takes in a flood of download events together, not one Library update each', async () => {
    vi.useFakeTimers();
    const fake = fakeApi({
      'downloads.list': () => [],
      'downloads.totals': () => ({ active: 0, bytes: 0, totalBytes: 0, unknownSizes: 0, pausedReason: null }),
      'downloads.preferences': () => null,
      'downloads.check': () => ({ checked: 0, lost: 0 }),
      'downloads.ofJobs': () => [],
    });
    useStudioApi(fake.api);
    setActivePinia(createPinia());
    const store = useDownloadsStore();
    await store.load();
    await store.follow('row in view', ['j7']);
    let updates = 0;
    watch(
      () => store.byJob,
      () => (updates += 1),
      { flush: 'sync' },
    );
    for (let n = 0; n < 5000; n += 1) fake.push('downloads.changed', entry(n));
    // An older state of one of them, arriving late, does not win.
    fake.push('downloads.changed', entry(7, { state: 'saved', updatedAt: 5 }));
    fake.push('downloads.changed', entry(7, { state: 'downloading', updatedAt: 3 }));
    expect(updates).toBe(0);
    await vi.runOnlyPendingTimersAsync();
    expect(updates).toBe(1);
    expect(store.byId.size).toBe(5000);
    expect(store.byJob.get('j7')?.[0].state).toBe('saved');
  });

  it('holds the copies of the jobs shown and the downloads under way, asked by job a page at a time', async () => {
    vi.useFakeTimers();
    // The host's record: a saved copy of each of 1,200 jobs, and one download running.
    const copies = Array.from({ length: 1200 }, (_, n) => entry(n, { state: 'saved' }));
    const running = entry(5000, { state: 'downloading' });
    const fake = fakeApi({
      'downloads.list': () => [running],
      'downloads.totals': () => ({ active: 1, bytes: 0, totalBytes: 0, unknownSizes: 0, pausedReason: null }),
      'downloads.preferences': () => null,
      'downloads.check': () => ({ checked: 1200, lost: 0 }),
      'downloads.ofJobs': (ids: unknown) => copies.filter((d) => (ids as string[]).includes(d.jobId)),
    });
    useStudioApi(fake.api);
    setActivePinia(createPinia());
    const store = useDownloadsStore();
    await store.load();
    expect([...store.byId.keys()]).toEqual(['d5000']);

    // A batch of 1,200 rows shown: its copies come in three questions of at most 500 jobs.
    await store.follow(
      'batch',
      copies.map((d) => d.jobId),
    );
    const asked = fake.calls.filter((c) => c.channel === 'downloads.ofJobs').map((c) => (c.args[0] as string[]).length);
    expect(asked).toEqual([500, 500, 200]);
    expect(store.byId.size).toBe(1201);

    // The Library shows two of them; the batch is closed: only those two and the running one stay.
    await store.follow('library', ['j3', 'j4']);
    store.unfollow('batch');
    expect([...store.byId.keys()].sort()).toEqual(['d3', 'd4', 'd5000']);
    // Jobs already held are not asked again.
    expect(fake.calls.filter((c) => c.channel === 'downloads.ofJobs')).toHaveLength(3);

    // News of a copy of a job nobody shows is not kept; news of a shown one is.
    fake.push('downloads.changed', entry(900, { state: 'missing', updatedAt: 9 }));
    fake.push('downloads.changed', entry(3, { state: 'missing', updatedAt: 9 }));
    await vi.runOnlyPendingTimersAsync();
    expect(store.byId.has('d900')).toBe(false);
    expect(store.byJob.get('j3')?.[0].state).toBe('missing');
    // A running download that is saved while its job is not shown is let go.
    fake.push('downloads.changed', entry(5000, { state: 'saved', updatedAt: 9 }));
    await vi.runOnlyPendingTimersAsync();
    expect(store.byId.has('d5000')).toBe(false);
  });
});
