import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type { BatchSummary } from '@common/bridge';
import type { JobTotals } from '@common/bridge/job-pages';
import { useStudioApi } from '@/bridge';
import CostTotals from '@/views/library/CostTotals.vue';
import { fakeApi } from './fake-api';

afterEach(() => useStudioApi(undefined));

const cost = (charged: number) => ({ charged, chargedByEstimate: 0, estimated: 0, unknown: 0 });
/** The host's totals of jobs, each a batch's with its credits (as the database sums them). */
const totals = (batches: [string, number][]): JobTotals => ({
  count: batches.length,
  byPhase: { completed: batches.length },
  byKind: {},
  cost: cost(batches.reduce((sum, [, credits]) => sum + credits, 0)),
  projects: [],
  batches: batches.map(([id, credits]) => ({ id, count: 1, since: 0, cost: cost(credits) })),
});
const summary = (id: string, label: string) => ({ id, label }) as BatchSummary;

describe("the Library's cost totals", () => {
  it('name each batch by its label, and keep the id where the list cannot be read', async () => {
    const fake = fakeApi({
      'batches.list': () => [summary('batch-1a2b', 'spring-sale.csv'), summary('batch-other', 'Other')],
    });
    useStudioApi(fake.api);
    const view = mount(CostTotals, {
      props: {
        totals: totals([
          ['batch-1a2b', 3],
          ['batch-gone', 4],
        ]),
        projectName: () => null,
      },
    });
    await flushPromises();
    const lines = view.findAll('[data-testid="cost-batch"]').map((li) => li.text());
    expect(lines).toEqual(['Batch "spring-sale.csv": 3 credits', 'Batch "batch-gone": 4 credits']);
    expect(fake.calls.filter((c) => c.channel === 'batches.list')).toHaveLength(1);

    const failing = fakeApi({});
    useStudioApi(failing.api);
    const unread = mount(CostTotals, { props: { totals: totals([['batch-9', 5]]), projectName: () => null } });
    await flushPromises();
    expect(unread.find('[data-testid="cost-batch"]').text()).toBe('Batch "batch-9": 5 credits');
  });
});
