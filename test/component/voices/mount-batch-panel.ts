// The batch page (Batch voiceovers) mounted as the Voices workspace shows it: its message and dialog
// providers, a fresh store, on fake studio calls the test gives; what any batch page reads on opening
// (the batches, the voices, the downloads folder, the balance) answers plainly unless the test says.
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import type { BatchRowState, BatchSummary, BatchView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import BatchPanel from '@/views/voices/BatchPanel.vue';
import { fakeApi } from '../library/fake-api';

type Handler = (...args: unknown[]) => unknown;

export function mountBatchPanel(handlers: Record<string, Handler>) {
  const fake = fakeApi({
    'batches.list': () => [],
    'catalogue.voices': () => [{ voice_id: 'v1', name: 'Ava' }],
    'downloads.preferences': () => ({ folder: '/home/me/Downloads', canChooseFolder: false }),
    'downloads.list': () => [],
    'downloads.totals': () => ({}),
    'connections.balance': () => ({ credit: 500 }),
    'batches.rows': () => ({ total: 0, problems: 0, rows: [] }),
    ...handlers,
  });
  useStudioApi(fake.api);
  const pinia = createPinia();
  setActivePinia(pinia);
  const voice = { voice_id: 'v1', name: 'Ava' };
  const Root = defineComponent({
    render: () =>
      h(NMessageProvider, null, {
        default: () => h(NDialogProvider, null, { default: () => h(BatchPanel, { voice: voice as never }) }),
      }),
  });
  const wrapper = mount(Root, { global: { plugins: [pinia] }, attachTo: document.body });
  return { wrapper, fake };
}

/** A started batch as the host shows it (without its rows, which its table reads a page at a time). */
export function batchView(
  id: string,
  counts: Partial<Record<BatchRowState, number>>,
  queue: string | null,
  createdAt = 1,
): BatchView {
  return {
    id,
    label: `${id}.csv`,
    createdAt,
    state: 'running',
    concurrency: 4,
    template: '{row}',
    counts: counts as BatchView['counts'],
    done: (counts.completed ?? 0) + (counts.failed ?? 0),
    balanceNote: null,
    pause: null,
    maxCredits: null,
    queue,
    total: Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0),
    pace: { doneAt: [], rowCharge: null, spent: 0 },
    withResults: 0,
  };
}

export function summaryOf(view: BatchView): BatchSummary {
  const { pace: _pace, withResults: _withResults, ...summary } = view;
  return summary;
}
