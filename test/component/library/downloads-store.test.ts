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
      'downloads.check': () => [],
    });
    useStudioApi(fake.api);
    setActivePinia(createPinia());
    const store = useDownloadsStore();
    await store.load();
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
});
