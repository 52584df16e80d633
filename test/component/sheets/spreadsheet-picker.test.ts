import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type { ChosenSheet } from '@common/bridge';

const host = vi.hoisted(() => ({ read: [] as string[], refuse: null as string | null }));
vi.mock('@/bridge', () => ({
  importSpreadsheet: vi.fn(async (file: File): Promise<ChosenSheet> => {
    host.read.push(file.name);
    if (host.refuse) throw new Error(host.refuse);
    return {
      url: `local://sheet/${file.name}`,
      name: file.name,
      readAs: 'a comma-separated file in UTF-8',
    } as ChosenSheet;
  }),
}));

import SpreadsheetPicker from '@/sheets/SpreadsheetPicker.vue';

afterEach(() => {
  host.read = [];
  host.refuse = null;
  document.body.innerHTML = '';
});

/** Hands the hidden input a file, as the browser's file dialog does. */
async function pick(wrapper: ReturnType<typeof mount>, file: File): Promise<void> {
  const input = wrapper.get('input[type="file"]').element as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await wrapper.get('input[type="file"]').trigger('change');
  await flushPromises();
}

describe('SpreadsheetPicker', () => {
  it('offers the formats the host reads, and hands the picked file to the host after saying a new one is coming', async () => {
    const wrapper = mount(SpreadsheetPicker, { props: { label: 'CSV file of the batch' } });
    const input = wrapper.get('input[type="file"]');
    expect(input.attributes('aria-label')).toBe('CSV file of the batch');
    expect(input.attributes('accept')?.split(',')).toEqual(expect.arrayContaining(['.csv', '.tsv', '.xlsx']));

    await pick(wrapper, new File(['text\nHello'], 'spots.csv', { type: 'text/csv' }));
    expect(host.read).toEqual(['spots.csv']);
    expect(wrapper.emitted('choosing')).toEqual([['spots.csv']]);
    expect(wrapper.emitted('chosen')?.[0]).toEqual([
      expect.objectContaining({ name: 'spots.csv', readAs: 'a comma-separated file in UTF-8' }),
      'spots.csv',
    ]);
    expect(wrapper.emitted('refused')).toBeUndefined();
  });

  it("names the file and the host's reason when it is refused, and takes the file again once it is fixed", async () => {
    const wrapper = mount(SpreadsheetPicker, { props: { label: 'Spreadsheet of the campaign' } });
    host.refuse = 'this is not a spreadsheet (binary content)';
    await pick(wrapper, new File([new Uint8Array([0, 159, 146, 150])], 'prospects.csv'));
    expect(wrapper.emitted('refused')).toEqual([['prospects.csv: this is not a spreadsheet (binary content)']]);
    expect(wrapper.emitted('chosen')).toBeUndefined();

    host.refuse = null;
    await pick(wrapper, new File(['First name\nAna'], 'prospects.csv', { type: 'text/csv' }));
    expect(wrapper.emitted('chosen')).toHaveLength(1);
    expect(host.read).toEqual(['prospects.csv', 'prospects.csv']);
  });
});
