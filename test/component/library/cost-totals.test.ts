import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type { BatchSummary, JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import CostTotals from '@/views/library/CostTotals.vue';
import { fakeApi } from './fake-api';

afterEach(() => useStudioApi(undefined));

const row = (batchId: string, credits: number): JobView =>
  ({
    chargedCredits: credits,
    costEstimate: null,
    phase: 'completed',
    remoteId: 'r',
    projectId: null,
    purpose: { type: 'batch-row', batchId, row: 0 },
  }) as unknown as JobView;
const summary = (id: string, label: string) => ({ id, label }) as BatchSummary;

describe("the Library's cost totals", () => {
  it('name each batch by its label, and keep the id where the list cannot be read', async () => {
    const fake = fakeApi({
      'batches.list': () => [summary('batch-1a2b', 'spring-sale.csv'), summary('batch-other', 'Other')],
    });
    useStudioApi(fake.api);
    const view = mount(CostTotals, {
      props: { jobs: [row('batch-1a2b', 1), row('batch-1a2b', 2), row('batch-gone', 4)], projectName: () => null },
    });
    await flushPromises();
    const lines = view.findAll('[data-testid="cost-batch"]').map((li) => li.text());
    expect(lines).toEqual(['Batch "spring-sale.csv": 3 credits', 'Batch "batch-gone": 4 credits']);
    expect(fake.calls.filter((c) => c.channel === 'batches.list')).toHaveLength(1);

    const failing = fakeApi({});
    useStudioApi(failing.api);
    const unread = mount(CostTotals, { props: { jobs: [row('batch-9', 5)], projectName: () => null } });
    await flushPromises();
    expect(unread.find('[data-testid="cost-batch"]').text()).toBe('Batch "batch-9": 5 credits');
  });
});
