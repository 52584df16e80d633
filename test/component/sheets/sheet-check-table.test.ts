import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type { BatchRow } from '@common/bridge';
import type { CampaignCheckView } from '@common/bridge/campaigns';
import BatchCheckTable from '@/views/voices/BatchCheckTable.vue';
import CampaignCheckTable from '@/views/campaigns/CampaignCheckTable.vue';
import { resizeObserverManager } from 'vueuc';

afterEach(() => {
  document.body.innerHTML = '';
});

const batchRows: BatchRow[] = [
  { row: 0, text: 'Hello there', voiceId: 'sandbox_ava', rate: '50%', name: 'hello' },
  { row: 1, text: '', voiceId: 'sandbox_ava', rate: '50%', name: null },
] as BatchRow[];

const campaignCheck = {
  variables: [{ id: 'v1', name: 'First name' }],
  columns: { v1: 'first' },
  unused: [],
  problems: [],
  rows: [
    { row: 0, values: { v1: 'Ada' }, fileName: 'ada.mp4', problems: [] },
    { row: 1, values: { v1: '' }, fileName: 'row-2.mp4', problems: ['{{First name}} is empty'] },
  ],
} as unknown as CampaignCheckView;

/** Both workspaces' tables, mounted with one refused row (row 2) and the name of an editable cell of row 1. */
const tables = [
  {
    name: 'batch voiceovers',
    mount: () =>
      mount(BatchCheckTable, {
        attachTo: document.body,
        props: {
          rows: batchRows,
          problems: [{ row: 1, message: 'The script is empty' }],
          voiceName: () => 'Ava',
          edited: new Set([0]),
        },
      }),
    cell: 'Edit script of sheet row 2',
    reason: 'The script is empty',
    before: 'Hello there',
    key: 'text',
    /** The batch marks a whole edited row: its number is starred. */
    marked: (row: Element) => row.querySelector('td')?.textContent === '2*',
  },
  {
    name: 'campaigns',
    mount: () =>
      mount(CampaignCheckTable, {
        attachTo: document.body,
        props: { check: campaignCheck, edited: new Set(['0:v1']), previewing: null },
      }),
    cell: 'Edit First name of sheet row 2',
    reason: '{{First name}} is empty',
    before: 'Ada',
    key: 'v1',
    /** A campaign marks the edited cell itself. */
    marked: (row: Element) => row.querySelector('.cell.changed')?.textContent === 'Ada',
  },
];

/**
 * The tables scroll virtually: they draw rows only once their list has been measured, and happy-dom
 * lays nothing out. Every element Naive UI observes is told it is 400 px tall, as a browser would.
 */
async function laidOut<T>(mounted: T): Promise<T> {
  await flushPromises();
  const observed = (resizeObserverManager as unknown as { elHandlersMap: Map<Element, (entry: unknown) => void> })
    .elHandlersMap;
  for (const [target, handler] of observed) handler({ target, contentRect: { width: 800, height: 400 } });
  await flushPromises();
  return mounted;
}

const byLabel = (label: string) => document.querySelector<HTMLElement>(`[aria-label="${label}"]`);

async function openEditor(cell: string): Promise<HTMLInputElement> {
  byLabel(cell)!.click();
  await flushPromises();
  return document.querySelector<HTMLInputElement>('[data-sheet-cell-editor] input')!;
}

/** Types a value (when given) into the open cell editor and presses a key there. */
async function leave(editor: HTMLInputElement, key: 'Enter' | 'Escape', value?: string): Promise<void> {
  if (value !== undefined) {
    editor.value = value;
    editor.dispatchEvent(new Event('input', { bubbles: true }));
  }
  editor.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  await flushPromises();
}

describe.each(tables)('the check table of $name', (table) => {
  it('shows a refused row red with its reason and a ready row as ready', async () => {
    await laidOut(table.mount());
    const rows = [...document.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(2);
    expect(rows[0].className).not.toMatch(/row-error/);
    expect(rows[0].textContent).toContain('ready');
    expect(rows[1].className).toMatch(/row-error/);
    expect(rows[1].textContent).toContain(table.reason);
  });

  it('edits a cell in place: Enter keeps a changed value, Escape drops it, an unchanged value is not sent', async () => {
    const wrapper = await laidOut(table.mount());
    const editor = await openEditor(table.cell);
    expect(document.activeElement).toBe(editor);
    expect(editor.value).toBe(table.before);
    await leave(editor, 'Enter');
    expect(wrapper.emitted('edit')).toBeUndefined();

    await leave(await openEditor(table.cell), 'Escape', 'Changed');
    expect(wrapper.emitted('edit')).toBeUndefined();
    expect(byLabel(table.cell)!.textContent).toBe(table.before);

    await leave(await openEditor(table.cell), 'Enter', 'Changed');
    expect(wrapper.emitted('edit')).toEqual([[0, table.key, 'Changed']]);
    expect(document.querySelector('[data-sheet-cell-editor]')).toBeNull();
  });

  it('marks what was changed before the check', async () => {
    await laidOut(table.mount());
    const [first, second] = document.querySelectorAll('tbody tr');
    expect(table.marked(first)).toBe(true);
    expect(table.marked(second)).toBe(false);
  });
});
