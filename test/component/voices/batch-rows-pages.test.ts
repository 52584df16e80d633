// A started batch's table reads its rows a page at a time (issue 68): the page never asks for every row,
// pages and the "only problems" filter ask the host for their window, a burst of changes reads the batch
// and the page in view again once or twice (not once a change), and the copies followed are those of the
// rows in view.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import type { BatchRowView, BatchRowsQuery } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { batchView, mountBatchPanel, summaryOf } from './mount-batch-panel';

const ROWS = 120;
const row = (n: number): BatchRowView => ({
  row: n,
  line: n + 2,
  text: `Line ${n + 1}.`,
  voiceId: 'v1',
  rate: '50%',
  name: null,
  state: n % 10 === 9 ? 'failed' : 'completed',
  jobId: `job-${n}`,
  resultUrl: n % 10 === 9 ? null : `https://cdn.example/${n}.mp3`,
  expiresAt: null,
  problem: n % 10 === 9 ? 'the voice is gone' : null,
  chargedCredits: 1,
  endedAt: 1_000 + n,
});
const all = Array.from({ length: ROWS }, (_, n) => row(n));

function mountPage() {
  const view = { ...batchView('big', { completed: 108, failed: 12 }, null, 1), withResults: 108 };
  const { wrapper, fake } = mountBatchPanel({
    'batches.list': () => [summaryOf(view)],
    'batches.get': () => ({ ...view }),
    'batches.rows': (_id, query) => {
      const { offset, limit, filter } = query as Required<BatchRowsQuery>;
      const kept = filter === 'problems' ? all.filter((r) => r.state === 'failed') : all;
      return { total: kept.length, problems: 12, rows: kept.slice(offset, offset + limit) };
    },
    'downloads.ofJobs': () => [],
  });
  const asked = (channel: string) => fake.calls.filter((c) => c.channel === channel);
  return { wrapper, fake, view, asked };
}

const sheetRows = (wrapper: VueWrapper) =>
  wrapper.findAll('[data-testid="batch-rows"] tbody tr').map((tr) => tr.find('td').text());

afterEach(() => useStudioApi(undefined));

describe("a batch's table a page at a time", () => {
  it('asks for the page in view, the next page, the problems, and follows the copies of the rows in view', async () => {
    const { wrapper, fake, view, asked } = mountPage();
    await flushPromises();
    await wrapper.findAll('[data-testid="batch-list"] button.title')[0].trigger('click');
    await vi.waitFor(() => expect(sheetRows(wrapper)).toHaveLength(50));
    expect(sheetRows(wrapper).slice(0, 2)).toEqual(['2', '3']);
    expect(asked('batches.rows').map((c) => c.args)).toEqual([['big', { offset: 0, limit: 50, filter: 'all' }]]);
    expect(wrapper.get('[data-testid="batch-tally"]').text()).toContain('120 rows');
    // The copies asked for are those of the rows in view, never the batch's every job.
    const followed = asked('downloads.ofJobs').flatMap((c) => c.args[0] as string[]);
    expect(new Set(followed)).toEqual(new Set(all.slice(0, 50).map((r) => r.jobId)));

    const next = wrapper.findAll('.n-pagination-item').find((item) => item.text() === '2');
    await next?.trigger('click');
    await vi.waitFor(() => expect(sheetRows(wrapper)[0]).toBe('52'));
    expect(asked('batches.rows').at(-1)?.args).toEqual(['big', { offset: 50, limit: 50, filter: 'all' }]);

    const problems = wrapper.get('[data-testid="batch-rows-problems"]');
    expect(problems.text()).toBe('Show only rows with problems (12)');
    await problems.trigger('click');
    await vi.waitFor(() => expect(sheetRows(wrapper)).toHaveLength(12));
    expect(asked('batches.rows').at(-1)?.args).toEqual(['big', { offset: 0, limit: 50, filter: 'problems' }]);
    expect(sheetRows(wrapper).slice(0, 2)).toEqual(['11', '21']);

    // A burst of the batch's changes: the batch and the page in view are read again, not once a change.
    const [gets, pages] = [asked('batches.get').length, asked('batches.rows').length];
    for (let i = 0; i < 20; i++) fake.push('batches.changed', summaryOf(view));
    await vi.waitFor(() => expect(asked('batches.rows').length).toBeGreaterThan(pages));
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(asked('batches.get').length - gets).toBeLessThanOrEqual(2);
    expect(asked('batches.rows').length - pages).toBeLessThanOrEqual(3);
    expect(asked('batches.rows').at(-1)?.args).toEqual(['big', { offset: 0, limit: 50, filter: 'problems' }]);
    wrapper.unmount();
  });
});
