// A campaign of 5,000 rows is not sent to the page whole (issue 68): its grid reads the page of rows it
// shows from the host, and reads that page again when the campaign changes.
import { afterEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { CampaignRowsQuery } from '@common/bridge/campaign-pages';
import type { CampaignRowRecord } from '@common/campaign/record';
import { useStudioApi } from '@/bridge';
import CampaignGrid from '@/views/campaigns/CampaignGrid.vue';
import { fakeApi } from '../library/fake-api';
import { gridCampaign, laidOut, rowsHandler } from './grid-host';

afterEach(() => useStudioApi(undefined));

const row = (n: number, state: CampaignRowRecord['state']) =>
  ({
    row: n,
    state,
    problems: [],
    values: {},
    fileName: `${n + 1}.mp4`,
    take: 0,
    savedAt: null,
    resultUrl: null,
  }) as unknown as CampaignRowRecord;

describe("a big campaign's grid", () => {
  it('reads the page of rows it shows, another page when asked, and the same page again at a change', async () => {
    let rows = Array.from({ length: 5000 }, (_, n) => row(n, 'pending'));
    const fake = fakeApi({
      'campaigns.rowStill': () => ({ dataUrl: null }),
      'campaigns.rows': (id: unknown, query: unknown) => rowsHandler(rows)['campaigns.rows'](id, query),
    });
    useStudioApi(fake.api);
    const props = {
      campaign: gridCampaign('c1', 'running'),
      version: 1,
      rowCost: '2 credits',
    };
    const wrapper = mount(CampaignGrid, { attachTo: document.body, props });
    await laidOut();
    const reads = () =>
      fake.calls.filter((c) => c.channel === 'campaigns.rows').map((c) => c.args[1] as CampaignRowsQuery);
    const shown = () =>
      wrapper
        .findAll('[data-testid^="campaign-grid-row-"]')
        .map((el) => Number(el.attributes('data-testid')?.slice('campaign-grid-row-'.length)));
    expect(reads()).toHaveLength(1);
    expect(reads()[0]).toMatchObject({ offset: 0, limit: 50 });
    expect(shown()[0]).toBe(1);

    // The third page of 50.
    const third = wrapper.findAll('.n-pagination-item').find((item) => item.text() === '3');
    expect(third).toBeDefined();
    await third?.trigger('click');
    await laidOut();
    expect(reads().at(-1)).toMatchObject({ offset: 100, limit: 50 });
    expect(shown()[0]).toBe(101);

    // A row of that page is done: the change reads that page again, and only it.
    rows = rows.map((r) => (r.row === 100 ? row(100, 'done') : r));
    await wrapper.setProps({ version: 2 });
    await laidOut();
    expect(reads().at(-1)).toMatchObject({ offset: 100, limit: 50 });
    expect(wrapper.get('[data-testid="campaign-grid-row-101"]').text()).toContain('Done');
    expect(reads().every((q) => (q.limit ?? 0) <= 50)).toBe(true);
    wrapper.unmount();
  });
});
