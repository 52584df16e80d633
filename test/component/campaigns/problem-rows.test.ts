// "Show only rows with problems" (issue 53): among thousands of rows the page lists the few that need
// the user — refused by the check, failed, held with a reason, or done with its file missing or changed
// on disk — on the campaign's grid, its check list and a batch's rows alike.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h } from 'vue';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import type { BatchRowView, BatchView, CopyState, DownloadView } from '@common/bridge';
import type { CampaignCheckView } from '@common/bridge/campaigns';
import type { CampaignRowRecord } from '@common/campaign/record';
import { useStudioApi } from '@/bridge';
import CampaignGrid from '@/views/campaigns/CampaignGrid.vue';
import CampaignCheckTable from '@/views/campaigns/CampaignCheckTable.vue';
import BatchRowsTable from '@/views/voices/BatchRowsTable.vue';
import { resizeObserverManager } from 'vueuc';
import { fakeApi } from '../library/fake-api';
import { gridCampaign, rowsHandler } from './grid-host';
import { fakeCopies } from '../library/fake-copies';
import { batchView } from '../voices/mount-batch-panel';

afterEach(() => useStudioApi(undefined));

/** The row numbers (1-based) a table shows, read from the testids its rows carry. */
const shown = (wrapper: VueWrapper, prefix: string) =>
  wrapper
    .findAll(`[data-testid^="${prefix}"]`)
    .map((el) => Number(el.attributes('data-testid')?.slice(prefix.length)))
    .filter((n) => Number.isInteger(n));

/**
 * The tables scroll virtually and draw rows only once measured; happy-dom lays nothing out, so every
 * element Naive UI observes is told it is 400 px tall, as a browser would.
 */
async function laidOut(): Promise<void> {
  await flushPromises();
  const observed = (resizeObserverManager as unknown as { elHandlersMap: Map<Element, (entry: unknown) => void> })
    .elHandlersMap;
  for (const [target, handler] of observed) handler({ target, contentRect: { width: 800, height: 400 } });
  await flushPromises();
}

async function onlyProblems(wrapper: VueWrapper, testid: string): Promise<void> {
  await wrapper.get(`[data-testid="${testid}"]`).trigger('click');
  await laidOut();
}

const campaignRow = (row: number, state: CampaignRowRecord['state'], problems: string[] = []) =>
  ({
    row,
    state,
    problems,
    values: {},
    fileName: `${row + 1}.mp4`,
    take: 0,
    savedAt: null,
    resultUrl: `https://r/${row}`,
  }) as unknown as CampaignRowRecord;

describe('show only rows with problems', () => {
  it("on a campaign's grid: refused, failed and a done row whose file is missing or changed, not the saved or running ones", async () => {
    const rows = [
      campaignRow(0, 'done'),
      campaignRow(1, 'invalid', ['{{First name}} is empty']),
      campaignRow(2, 'failed', ['the video failed']),
      campaignRow(3, 'done'),
      campaignRow(4, 'done'),
      campaignRow(5, 'video'),
      campaignRow(6, 'cancelled'),
    ];
    // The host's record of copies says row 3's file is missing and row 4's changed: its filter counts their rows.
    const files: Record<number, CopyState> = { 0: 'saved', 3: 'missing', 4: 'changed' };
    useStudioApi(fakeApi({ 'campaigns.rowStill': () => ({ dataUrl: null }), ...rowsHandler(rows, {}, files) }).api);
    const wrapper = mount(CampaignGrid, {
      attachTo: document.body,
      props: { campaign: gridCampaign('c1', 'finished'), version: 1, rowCost: '2 credits' },
    });
    await laidOut();
    expect(shown(wrapper, 'campaign-grid-row-')).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(wrapper.get('[data-testid="campaign-grid-problems"]').text()).toContain('(4)');
    await onlyProblems(wrapper, 'campaign-grid-problems');
    expect(shown(wrapper, 'campaign-grid-row-')).toEqual([2, 3, 4, 5]);
  });

  it("on a campaign's check list: only the rows the check will not send, each keeping its spreadsheet row number", async () => {
    const check = {
      variables: [{ id: 'v1', name: 'First name' }],
      columns: { v1: 'first' },
      unused: [],
      problems: [],
      rows: [
        { row: 0, values: { v1: 'Ada' }, fileName: 'ada.mp4', problems: [] },
        { row: 1, values: { v1: '' }, fileName: 'row-2.mp4', problems: ['{{First name}} is empty'] },
        { row: 2, values: { v1: 'Bo' }, fileName: 'bo.mp4', problems: [] },
      ],
    } as unknown as CampaignCheckView;
    const wrapper = mount(CampaignCheckTable, {
      attachTo: document.body,
      props: { check, edited: new Set<string>(), previewing: null },
    });
    await laidOut();
    const previews = () =>
      wrapper.findAll('button[aria-label^="Preview sheet row "]').map((b) => b.attributes('aria-label'));
    expect(previews()).toEqual(['Preview sheet row 2', 'Preview sheet row 3', 'Preview sheet row 4']);
    await onlyProblems(wrapper, 'campaign-check-problems');
    expect(previews()).toEqual(['Preview sheet row 3']);
  });

  it("on a batch's rows: failed, refused and a made row whose file is missing or changed", async () => {
    const asked: string[] = [];
    const download = (jobId: string, state: DownloadView['state']) =>
      ({ id: `d-${jobId}`, jobId, state, origin: 'batch', createdAt: 1, updatedAt: 1 }) as DownloadView;
    useStudioApi(
      fakeApi({
        ...fakeCopies([download('j0', 'saved'), download('j3', 'missing'), download('j4', 'changed')]),
        'batches.rows': (_id, query) => {
          const { filter } = query as { filter: string };
          asked.push(filter);
          const kept = filter === 'problems' ? rows.filter((r) => problems.has(r.row)) : rows;
          return { total: kept.length, problems: problems.size, rows: kept };
        },
        'downloads.totals': () => ({ active: 0, bytes: 0, totalBytes: 0, unknownSizes: 0, pausedReason: null }),
        'downloads.preferences': () => ({}),
      }).api,
    );
    setActivePinia(createPinia());
    const row = (n: number, state: BatchRowView['state'], problem: string | null = null) =>
      ({
        row: n,
        state,
        problem,
        text: `Line ${n}`,
        voiceId: 'v',
        rate: '50%',
        name: null,
        jobId: state === 'completed' ? `j${n}` : null,
        resultUrl: state === 'completed' ? `https://r/${n}` : null,
        expiresAt: null,
      }) as unknown as BatchRowView;
    const rows = [
      row(0, 'completed'),
      row(1, 'invalid', 'The script is empty'),
      row(2, 'failed', 'quota'),
      row(3, 'completed'),
      row(4, 'completed'),
      row(5, 'waiting'),
    ];
    // The host keeps the rows with a problem (batch-rows-page.ts, its own test): the table asks for them.
    const problems = new Set([1, 2, 3, 4]);
    asked.length = 0;
    const batch = {
      ...batchView('b1', { completed: 3, invalid: 1, failed: 1, waiting: 1 }, null),
      state: 'finished',
    } as BatchView;
    const Host = defineComponent(
      () => () =>
        h(NMessageProvider, () => h(NDialogProvider, () => h(BatchRowsTable, { batch, voiceName: () => 'Ava' }))),
    );
    const wrapper = mount(Host, { attachTo: document.body });
    await laidOut();
    expect(shown(wrapper, 'batch-row-file-')).toEqual([1, 2, 3, 4, 5, 6]);
    await onlyProblems(wrapper, 'batch-rows-problems');
    // Page reads are spaced (use-batch-rows-page.ts): waited for, with a hang guard.
    await vi.waitFor(
      async () => {
        await flushPromises();
        expect(shown(wrapper, 'batch-row-file-')).toEqual([2, 3, 4, 5]);
      },
      { timeout: 10_000 },
    );
    expect(asked).toEqual(['all', 'problems']);
    // The made rows shown say what became of their files.
    expect(wrapper.get('[data-testid="batch-row-file-4"]').text()).toBe('File missing');
    expect(wrapper.get('[data-testid="batch-row-file-5"]').text()).toBe('File changed');
  });
});
