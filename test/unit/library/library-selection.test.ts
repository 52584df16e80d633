// What the Library's ticks become for the host: "all of this filter but these" stays a filter however
// many jobs it covers (no list of ids), a hand-picked selection is narrowed by the filter shown, and
// the Library's filter is the host's question, "Not saved" included.
import { describe, expect, it } from 'vitest';
import {
  NOTHING_TICKED,
  isTicked,
  selectionFor,
  setTicked,
  tickAll,
  tickedCount,
} from '../../../renderer/src/views/library/library-selection';
import { hostSortedColumns, toHostFilter, toHostSort } from '../../../renderer/src/views/library/host-filter';
import { NO_PROJECT, emptyFilter } from '../../../renderer/src/views/library/job-filters';

const DAY = 86_400_000;

describe("the Library's ticks", () => {
  it('keeps "all" as its filter and the ids unticked since, however many jobs it covers', () => {
    const shown = { phases: ['completed' as const], saved: false };
    let ticked = tickAll(shown, { sort: 'cost', descending: false });
    ticked = setTicked(ticked, ['job-7', 'job-9'], false);
    ticked = setTicked(ticked, ['job-9'], true);
    expect(isTicked(ticked, 'job-7')).toBe(false);
    expect(isTicked(ticked, 'job-1000000')).toBe(true);
    expect(tickedCount(ticked, 1_000_000)).toBe(999_999);
    const selection = selectionFor(ticked, shown);
    expect(selection).toEqual({ filter: shown, sort: 'cost', descending: false, except: ['job-7'] });
    expect(JSON.stringify(selection).length).toBeLessThan(200);
  });

  it('narrows a hand-picked selection by the filter now shown', () => {
    expect(selectionFor(NOTHING_TICKED, {})).toBeNull();
    const ticked = setTicked(NOTHING_TICKED, ['a', 'b'], true);
    expect(tickedCount(ticked, 50)).toBe(2);
    expect(selectionFor(ticked, { kinds: ['tts'] })).toEqual({ filter: { kinds: ['tts'], ids: ['a', 'b'] } });
  });
});

describe("the Library's filter as the host's question", () => {
  it('asks for every part of the filter, the tab as phases and Not saved as saved: false', () => {
    expect(toHostFilter(emptyFilter())).toEqual({});
    const from = Date.UTC(2026, 0, 1);
    const host = toHostFilter({
      ...emptyFilter(),
      status: 'problems',
      kinds: ['tts'],
      project: NO_PROJECT,
      batch: 'b1',
      from,
      to: from + DAY,
      expiringSoon: true,
      notSaved: true,
      search: '  hello ',
    });
    expect(host).toEqual({
      phases: ['failed', 'outcome-unknown', 'stalled'],
      kinds: ['tts'],
      projectId: null,
      batchId: 'b1',
      createdFrom: from,
      createdBefore: from + 2 * DAY,
      expiringWithinMs: DAY,
      saved: false,
      search: 'hello',
    });
    // The tabs' counts are of the filter but its tab.
    expect(toHostFilter({ ...emptyFilter(), status: 'done' }, { status: false })).toEqual({});
    expect(toHostFilter({ ...emptyFilter(), status: 'done' })).toEqual({ phases: ['completed'] });
  });

  it("finds a project's jobs by its name, which only the page knows", () => {
    const named = (search: string) => (search === 'spring' ? ['p1'] : []);
    expect(toHostFilter({ ...emptyFilter(), search: 'spring' }, { named })).toEqual({
      search: 'spring',
      searchProjectIds: ['p1'],
    });
    expect(toHostFilter({ ...emptyFilter(), search: 'autumn' }, { named })).toEqual({ search: 'autumn' });
  });

  it('sorts on the host by the columns it can order, and no other column pretends to sort', () => {
    expect(toHostSort(null)).toEqual({ sort: 'created', descending: true });
    expect(toHostSort({ columnKey: 'cost', order: 'ascend' })).toEqual({ sort: 'cost', descending: false });
    const columns = hostSortedColumns(
      [{ key: 'cost', sorter: () => 0 }, { key: 'project', sorter: () => 0 }, { type: 'selection' }],
      { columnKey: 'cost', order: 'descend' },
    );
    expect(columns).toEqual([
      { key: 'cost', sorter: true, sortOrder: 'descend' },
      { key: 'project', sorter: undefined },
      { type: 'selection' },
    ]);
  });
});
