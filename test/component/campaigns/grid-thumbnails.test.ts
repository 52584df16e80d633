// A campaign's grid of 5,000 rows asks the host for the thumbnails of the rows in view only, one at a
// time; leaving the workspace (the grid unmounted) takes back every ask not started.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type { CampaignRowRecord } from '@common/campaign/record';
import { useStudioApi } from '@/bridge';
import CampaignGrid from '@/views/campaigns/CampaignGrid.vue';
import { fakeApi } from '../library/fake-api';
import { gridCampaign, laidOut, rowsHandler } from './grid-host';

afterEach(() => useStudioApi(undefined));

const row = (n: number) =>
  ({
    row: n,
    state: 'pending',
    problems: [],
    values: {},
    fileName: `${n + 1}.mp4`,
    take: 0,
    savedAt: null,
    resultUrl: null,
  }) as unknown as CampaignRowRecord;

/** A grid of 5,000 rows whose host draws a thumbnail only when the test lets it end, as a slow ffmpeg run would. */
async function bigGrid() {
  const drawing: Array<() => void> = [];
  const asked: number[] = [];
  const rows = Array.from({ length: 5000 }, (_, n) => row(n));
  const fake = fakeApi({
    ...rowsHandler(rows),
    'campaigns.rowStill': (_id: unknown, n: unknown) =>
      new Promise((done) => {
        asked.push(n as number);
        drawing.push(() => done({ dataUrl: `data:image/png;base64,${String(n)}`, width: 1, height: 1, rows: [n] }));
      }),
  });
  useStudioApi(fake.api);
  const wrapper = mount(CampaignGrid, {
    attachTo: document.body,
    props: { campaign: gridCampaign('c1', 'running'), version: 1, rowCost: '2 credits' },
  });
  await laidOut();
  const inView = new Set(
    wrapper
      .findAll('[data-testid^="campaign-grid-row-"]')
      .map((el) => Number(el.attributes('data-testid')?.slice('campaign-grid-row-'.length)) - 1),
  );
  /** Lets the drawing under way end. */
  const drawOne = async () => {
    drawing.shift()?.();
    await flushPromises();
  };
  return { wrapper, asked, drawing, inView, drawOne, calls: fake.calls };
}

describe("the campaign grid's thumbnails", () => {
  it('are drawn for the rows in view only, one at a time', async () => {
    const grid = await bigGrid();
    expect(grid.inView.size).toBeGreaterThan(0);
    expect(grid.inView.size).toBeLessThan(50);
    expect(grid.asked).toHaveLength(1);
    // Each drawing let end, until the host is asked for nothing more (a hang guard of 200 steps).
    for (let step = 0; step < 200 && grid.drawing.length > 0; step += 1) await grid.drawOne();
    expect([...grid.asked].sort((a, b) => a - b)).toEqual([...grid.inView].sort((a, b) => a - b));
    expect(grid.wrapper.findAll('img.thumb')).toHaveLength(grid.inView.size);
    grid.wrapper.unmount();
  });

  it('are not asked for once the grid is gone (the workspace left): asks not started are taken back', async () => {
    const grid = await bigGrid();
    await grid.drawOne();
    await grid.drawOne();
    expect(grid.asked).toHaveLength(3);
    grid.wrapper.unmount();
    await grid.drawOne();
    expect(grid.asked).toHaveLength(3);
  });
});
