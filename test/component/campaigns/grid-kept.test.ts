// Next week's campaign into last week's folder: a row kept from the folder cost nothing in this campaign
// and is not a problem. Its cost says so (not the quoted price of a row) and its note is not a failure's.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { resizeObserverManager } from 'vueuc';
import { MADE_EARLIER, type CampaignRowRecord } from '@common/campaign/record';
import { useStudioApi } from '@/bridge';
import CampaignGrid from '@/views/campaigns/CampaignGrid.vue';
import { fakeApi } from '../library/fake-api';
import { gridCampaign, rowsHandler } from './grid-host';

afterEach(() => useStudioApi(undefined));

const row = (n: number, problems: string[]) =>
  ({
    row: n,
    state: 'done',
    problems,
    values: {},
    fileName: `${n + 1}.mp4`,
    take: 0,
    savedAt: 1,
    resultUrl: `https://r/${n}`,
  }) as unknown as CampaignRowRecord;

describe("a campaign's grid", () => {
  it('says a row kept from the folder cost nothing here, and does not show its note as a problem', async () => {
    const rows = [row(0, [MADE_EARLIER]), row(1, [])];
    useStudioApi(
      fakeApi({
        'campaigns.rowStill': () => ({ dataUrl: null }),
        ...rowsHandler(rows, { '1': 11 }, { 0: 'saved', 1: 'saved' }),
      }).api,
    );
    const wrapper = mount(CampaignGrid, {
      attachTo: document.body,
      props: {
        campaign: gridCampaign('c2', 'finished'),
        version: 1,
        rowCost: '≈ 10 credits',
      },
    });
    await flushPromises();
    const observed = (resizeObserverManager as unknown as { elHandlersMap: Map<Element, (entry: unknown) => void> })
      .elHandlersMap;
    for (const [target, handler] of observed) handler({ target, contentRect: { width: 800, height: 400 } });
    await flushPromises();
    expect(wrapper.get('[data-testid="campaign-grid-row-cost-1"]').text()).toBe('none (kept)');
    expect(wrapper.get('[data-testid="campaign-grid-row-cost-2"]').text()).toBe('11 credits');
    const kept = wrapper.get('[data-testid="campaign-grid-row-1"]');
    expect(kept.find('.reason').exists()).toBe(false);
    expect(kept.text()).toContain('made by an earlier campaign into this folder, kept');
    wrapper.unmount();
  });
});
