// The Library's pages store under a stream of job events: a burst of new jobs asks the host for the
// totals and the rows in view once per REFRESH_EVERY_MS, not once per job, and never while the last
// refresh is still being answered; a change to a row in view is applied in place without asking, and a
// burst of them is drawn once a frame.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { REFRESH_EVERY_MS, useLibraryPagesStore } from '@/stores/library-pages';
import { fakeApi } from './fake-api';
import { PAGE_ROWS } from '@/views/library/job-window';

afterEach(() => useStudioApi(undefined));

const job = (id: string, phase: JobView['phase'] = 'queued') => ({ id, phase, createdAt: 1 }) as JobView;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function mount() {
  let hold: Promise<void> | null = null;
  const fake = fakeApi({
    'jobs.page': () => ({ jobs: [job('a'), job('b')], next: null }),
    'jobs.totals': async () => {
      await hold;
      return {
        count: 2,
        byPhase: { queued: 2 },
        byKind: {},
        cost: { charged: 0, chargedByEstimate: 0, estimated: 0, unknown: 0 },
      };
    },
  });
  useStudioApi(fake.api);
  setActivePinia(createPinia());
  const store = useLibraryPagesStore();
  const totalsAsked = () => fake.calls.filter((c) => c.channel === 'jobs.totals').length;
  return { store, fake, totalsAsked, holdTotals: (until: Promise<void> | null) => (hold = until) };
}

describe('the Library pages store', () => {
  it('asks again once per refresh period for a burst of new jobs, and not at all for a row in view', async () => {
    const { store, fake, totalsAsked } = mount();
    await store.start();
    store.show(0, 2);
    await flushPromises();
    const before = totalsAsked();
    fake.push('jobs.changed', { ...job('a'), summary: 'progress' });
    expect(store.find('a')?.summary).toBe('progress');
    await sleep(REFRESH_EVERY_MS + 100);
    expect(totalsAsked()).toBe(before);

    for (let i = 0; i < 50; i += 1) fake.push('jobs.changed', job(`new-${i}`));
    await sleep(REFRESH_EVERY_MS + 200);
    await flushPromises();
    // One refresh: its three totals questions are one with no filter.
    expect(totalsAsked()).toBe(before + 1);
    store.dispose();
  });

  // Fails when each update of a row in view draws the table again: while a campaign runs the host
  // pushes many a second, each in its own task.
  it('draws a burst of updates to rows in view once, in the next animation frame', async () => {
    const { store, fake } = mount();
    await store.start();
    store.show(0, 2);
    await flushPromises();
    const drawn = store.version;
    for (let i = 0; i < 20; i += 1) fake.push('jobs.changed', { ...job(i % 2 ? 'a' : 'b'), summary: `tick ${i}` });
    expect(store.find('b')?.summary).toBe('tick 18');
    expect(store.version).toBe(drawn);
    await new Promise((resolve) => window.requestAnimationFrame(resolve));
    expect(store.version).toBe(drawn + 1);
    store.dispose();
  });

  it('waits for a refresh still being answered before it asks again', async () => {
    const { store, fake, totalsAsked, holdTotals } = mount();
    await store.start();
    const before = totalsAsked();
    let release = () => undefined as void;
    holdTotals(new Promise<void>((resolve) => (release = resolve)));
    fake.push('jobs.changed', job('new-1'));
    await sleep(REFRESH_EVERY_MS + 100);
    expect(totalsAsked()).toBe(before + 1);
    fake.push('jobs.changed', job('new-2'));
    await sleep(2 * REFRESH_EVERY_MS + 100);
    expect(totalsAsked()).toBe(before + 1);
    holdTotals(null);
    release();
    await sleep(REFRESH_EVERY_MS + 200);
    expect(totalsAsked()).toBe(before + 2);
    store.dispose();
  });

  // Fails when the rows wait for the counts (the table's height came from the totals alone): on a
  // million jobs the totals take a second or more after the first page.
  it('shows the first rows before the totals come, asking for them first', async () => {
    const { store, fake, holdTotals } = mount();
    let release: () => void = () => undefined;
    holdTotals(new Promise<void>((resolve) => (release = resolve)));
    const started = store.start();
    await flushPromises();
    const asked = fake.calls.map((c) => c.channel).filter((c) => c === 'jobs.page' || c === 'jobs.totals');
    expect(asked[0]).toBe('jobs.page');
    expect(store.loaded).toBe(true);
    expect(store.count).toBe(2);
    expect(store.rows(0, store.count).map((row) => row?.id)).toEqual(['a', 'b']);
    release();
    await started;
    expect(store.totals?.count).toBe(2);
    store.dispose();
  });

  it('calls the count final only when the totals come or the rows from the top end', async () => {
    // A host of many jobs whose totals are held: its first pages are full, so the count is not known yet
    // (the table would draw them as one table of every row, then again as a window).
    const many = Array.from({ length: 5 * PAGE_ROWS }, (_, i) => job(`j${i}`));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fake = fakeApi({
      'jobs.page': (query: unknown) => {
        const { offset = 0, limit } = query as { offset?: number; limit: number };
        return { jobs: many.slice(offset, offset + limit), next: null };
      },
      'jobs.totals': async () => {
        await held;
        return {
          count: many.length,
          byPhase: {},
          byKind: {},
          cost: { charged: 0, chargedByEstimate: 0, estimated: 0, unknown: 0 },
        };
      },
    });
    useStudioApi(fake.api);
    setActivePinia(createPinia());
    const store = useLibraryPagesStore();
    const started = store.start();
    await flushPromises();
    expect(store.count).toBe(2 * PAGE_ROWS);
    expect(store.countFinal).toBe(false);
    release();
    await started;
    expect([store.count, store.countFinal]).toEqual([many.length, true]);
    store.dispose();

    // Two jobs: the first page comes back short, so the count is final before the totals.
    const small = mount();
    small.holdTotals(new Promise<void>(() => undefined));
    void small.store.start();
    await flushPromises();
    expect([small.store.count, small.store.countFinal]).toEqual([2, true]);
    small.store.dispose();
  });
});
