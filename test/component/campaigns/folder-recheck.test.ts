// The folder typed after the sheet was chosen is the one the rows are checked against: next week's sheet
// run into last week's folder says how many rows are there already and which files it would write over.
// Typed while the sheet's own check is still out, the later answer is the one shown.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { NSelect } from 'naive-ui';
import type { CampaignCheckView } from '@common/bridge/campaigns';
import { useStudioApi } from '@/bridge';
import SpreadsheetPicker from '@/sheets/SpreadsheetPicker.vue';
import { mountCampaigns } from './mount-campaigns';
import { fakeApi } from '../library/fake-api';

afterEach(() => useStudioApi(undefined));

const rows = Array.from({ length: 5 }, (_, row) => ({
  row,
  fileName: `${row + 1}.mp4`,
  values: {},
  problems: [],
  held: [],
}));
const answer = (kept: number): CampaignCheckView => ({
  readAs: 'a comma-separated file in UTF-8',
  variables: [],
  columns: {},
  unused: [],
  speech: null,
  problems: [],
  existing: [],
  kept,
  rows,
});

describe('the campaign folder typed by hand', () => {
  it('checks the rows against it, and shows the answer for the folder typed last', async () => {
    // Each folder's check answers when the test opens its gate: the order of the answers is the test's.
    const asked: string[] = [];
    const gates = new Map<string, () => void>();
    const opened = new Map<string, Promise<void>>();
    const gate = (folder: string) => {
      if (!opened.has(folder)) opened.set(folder, new Promise<void>((open) => gates.set(folder, open)));
      return opened.get(folder) as Promise<void>;
    };
    const fake = fakeApi({
      'projects.listRecent': () => [{ id: 'p1', name: 'Greeting' }],
      'templates.list': () => ({ templates: [], unreadable: [] }),
      'downloads.preferences': () => ({ folder: '/home/me/Downloads', canChooseFolder: false }),
      'downloads.list': () => [],
      'downloads.totals': () => ({}),
      'campaigns.list': () => [],
      'connections.balance': () => ({ credit: 500 }),
      'connections.list': () => ({ connections: [], activeId: 'sandbox' }),
      'campaigns.check': async (input) => {
        const { outDir } = input as { outDir: string };
        asked.push(outDir);
        await gate(outDir);
        return answer(outDir === '/videos/last-week' ? 3 : 0);
      },
    });
    useStudioApi(fake.api);
    const wrapper = mountCampaigns();
    await flushPromises();
    wrapper.getComponent(NSelect).vm.$emit('update:value', 'p1');
    await flushPromises();
    wrapper
      .getComponent(SpreadsheetPicker)
      .vm.$emit('chosen', { kind: 'granted', grantId: 'g1', name: 'prospects.csv' }, 'prospects.csv');
    await flushPromises();
    // The sheet's check went out against the default folder; the user types last week's before it answers.
    expect(asked).toEqual(['/home/me/Downloads/Campaigns/prospects']);
    const folder = wrapper.get('input[aria-label="Campaign folder"]');
    await folder.setValue('/videos/last-week');
    await folder.trigger('change');
    await flushPromises();
    expect(asked.at(-1)).toBe('/videos/last-week');

    gates.get('/videos/last-week')?.();
    await flushPromises();
    // The default folder's answer comes last, and is not the one shown.
    gates.get('/home/me/Downloads/Campaigns/prospects')?.();
    await flushPromises();
    expect(wrapper.get('[data-testid="campaign-check-summary"]').text()).toContain(
      '5 rows: 5 ready (3 in the folder already, 2 to make)',
    );
    wrapper.unmount();
  });
});
