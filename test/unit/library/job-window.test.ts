// The Library's window over the host's pages: it fetches only the pages near the rows in view, drops
// those far from them (what the page holds stays bounded however many jobs there are), replaces a
// changed job in place, ignores answers to an older question, and keeps showing rows during a refresh.
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../electron/common/bridge/jobs';
import { JobWindow, PAGE_ROWS } from '../../../renderer/src/views/library/job-window';

const TOTAL = 1_000_000;
const job = (i: number, over: Partial<JobView> = {}) => ({ id: `job-${i}`, phase: 'queued', ...over }) as JobView;

function host() {
  const asked: number[] = [];
  let label = '';
  const pending: (() => void)[] = [];
  let hold = false;
  const fetch = (offset: number, limit: number) => {
    asked.push(offset);
    const rows = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, i) =>
      job(offset + i, { summary: label } as Partial<JobView>),
    );
    if (!hold) return Promise.resolve(rows);
    return new Promise<JobView[]>((resolve) => pending.push(() => resolve(rows)));
  };
  return {
    asked,
    fetch,
    relabel: (next: string) => (label = next),
    hold: (on: boolean) => (hold = on),
    release: () => pending.splice(0).forEach((go) => go()),
  };
}

describe('the Library window over a million jobs', () => {
  it('fetches the pages in view and one either side, never the rest', async () => {
    const h = host();
    const w = new JobWindow(h.fetch, () => undefined);
    await w.show(0, 20);
    expect(h.asked).toEqual([0, PAGE_ROWS]);
    expect(w.rows(0, 3).map((r) => r?.id)).toEqual(['job-0', 'job-1', 'job-2']);
    // The scrollbar dragged to the middle: the pages there, by offset.
    await w.show(500_000, 500_020);
    expect(h.asked.slice(2)).toEqual([499_950, 500_000, 500_050]);
    expect(w.rows(500_000, 500_001)[0]?.id).toBe('job-500000');
    // The first pages are far away now: dropped.
    expect(w.rows(0, 1)).toEqual([null]);
  });

  it('holds a bounded number of pages however far it scrolls', async () => {
    const h = host();
    const w = new JobWindow(h.fetch, () => undefined, 2);
    for (let start = 0; start < 20_000; start += 15) await w.show(start, start + 20);
    expect(w.held).toBeLessThanOrEqual(2 + 3 + 2);
    // Pages already held are not asked again while the view moves inside them.
    expect(h.asked.length).toBeLessThan(20_000 / PAGE_ROWS + 5);
  });

  it('replaces a changed job where it is held, and says what it was', async () => {
    const h = host();
    let changes = 0;
    const w = new JobWindow(h.fetch, () => (changes += 1));
    await w.show(0, 10);
    const before = changes;
    expect(w.update(job(3, { phase: 'completed' }))?.phase).toBe('queued');
    expect(w.rows(3, 4)[0]?.phase).toBe('completed');
    // The caller says when the rows are drawn again (the store, once a frame), not the window.
    expect(changes).toBe(before);
    // A job not held (new, or far away) is not invented into the window.
    expect(w.update(job(900_000))).toBeNull();
  });

  it('keeps the rows shown while a refresh is on its way, and drops an answer of an older question', async () => {
    const h = host();
    const w = new JobWindow(h.fetch, () => undefined);
    h.relabel('old');
    await w.show(0, 10);
    h.hold(true);
    h.relabel('new');
    const refreshed = w.refresh();
    expect(w.rows(0, 1)[0]?.summary).toBe('old');
    h.release();
    await refreshed;
    expect(w.rows(0, 1)[0]?.summary).toBe('new');

    // A new filter while a page is on its way: that page is of the old filter and is not shown.
    const late = w.show(200, 210);
    w.reset();
    h.release();
    await late;
    expect(w.rows(200, 201)).toEqual([null]);
  });

  it('says the rows from the top are every row only once a page comes back short', async () => {
    const of = (total: number) => (offset: number, limit: number) =>
      Promise.resolve(Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => job(offset + i)));
    // A full first page of many: not the whole count, so the Library does not draw it as one table.
    const many = new JobWindow(of(TOTAL), () => undefined);
    expect(many.complete).toBe(false);
    await many.show(0, 0);
    expect([many.leading, many.complete]).toEqual([2 * PAGE_ROWS, false]);
    const few = new JobWindow(of(PAGE_ROWS + 5), () => undefined);
    await few.show(0, 0);
    expect([few.leading, few.complete]).toEqual([PAGE_ROWS + 5, true]);
    // Exactly one page: the empty page after it ends the count.
    const one = new JobWindow(of(PAGE_ROWS), () => undefined);
    await one.show(0, 0);
    expect([one.leading, one.complete]).toEqual([PAGE_ROWS, true]);
  });
});
