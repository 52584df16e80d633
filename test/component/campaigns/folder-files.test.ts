// What the chosen folder holds, as the check found it (issue 53): rows kept from it are counted, and
// rows whose name is taken by a file they did not make are named with the three choices.
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { CampaignCheckView } from '@common/bridge/campaigns';
import CampaignFolderFiles from '@/views/campaigns/CampaignFolderFiles.vue';
import { takenFileLines } from '@common/campaign/taken-files';
import { rowsToMake } from '@/views/campaigns/campaign-logic';

const check = (existing: CampaignCheckView['existing'], kept: number): CampaignCheckView => ({
  readAs: 'a comma-separated file in UTF-8',
  variables: [],
  columns: {},
  unused: [],
  speech: null,
  problems: [],
  existing,
  kept,
  rows: [],
});

describe('the files already in a campaign folder', () => {
  it('counts the rows kept, names the files a row would write over, and hands back the choice', async () => {
    const wrapper = mount(CampaignFolderFiles, {
      props: { check: check([{ row: 0, fileName: '1 - Uma.mp4' }], 3), folder: '/videos', choice: undefined },
    });
    expect(wrapper.get('[data-testid="campaign-kept"]').text()).toContain(
      '3 rows are in the folder already (made earlier, kept)',
    );
    const taken = wrapper.get('[data-testid="campaign-existing-files"]');
    expect(taken.text()).toContain('1 row would write over a file in /videos that is not its own video.');
    expect(taken.findAll('[data-testid="campaign-existing-rows"] li').map((li) => li.text())).toEqual([
      'Sheet row 2: "1 - Uma.mp4"',
    ]);
    expect(taken.findAll('input[type="radio"]')).toHaveLength(3);
    await taken.findAll('input[type="radio"]')[0].setValue(true);
    expect(wrapper.emitted('update:choice')?.[0]).toEqual(['rename']);
  });

  it('names every row whose file is taken, in sheet order, in the words the command line prints', () => {
    // Issue 63: next week's sheet had five such rows among 5,000, and the page named some of them.
    const existing = [9, 2, 40, 7, 11, 5, 30].map((row) => ({ row, line: row + 2, fileName: `${row + 1} - Uma.mp4` }));
    const wrapper = mount(CampaignFolderFiles, {
      props: { check: check(existing, 0), folder: '/videos', choice: undefined },
    });
    const named = wrapper.findAll('[data-testid="campaign-existing-rows"] li').map((li) => li.text());
    expect(named).toEqual(takenFileLines(existing));
    expect(named).toEqual([2, 5, 7, 9, 11, 30, 40].map((row) => `Sheet row ${row + 2}: "${row + 1} - Uma.mp4"`));
    expect(wrapper.get('[data-testid="campaign-existing-files"]').text()).toContain(
      '7 rows would write over a file in /videos that is not their own video.',
    );
  });

  it('offers to make only the rows the folder lacks: 5,088 ready of which 4,995 kept is 93 to make', () => {
    const rows = Array.from({ length: 5_100 }, (_, row) => ({
      row,
      fileName: `${row + 1}.mp4`,
      values: {},
      problems: row < 12 ? ['{{First name}} is empty'] : [],
      held: [],
    }));
    expect(rowsToMake({ ...check([], 4_995), rows })).toBe(93);
  });

  it('says nothing when the folder holds nothing of the campaign', () => {
    const wrapper = mount(CampaignFolderFiles, {
      props: { check: check([], 0), folder: '/videos', choice: undefined },
    });
    expect(wrapper.find('[data-testid="campaign-kept"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="campaign-existing-files"]').exists()).toBe(false);
  });
});
