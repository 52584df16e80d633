// The one way a run's rows are paged in the renderer (issue 68): the batch's table and the campaign's grid
// both read the page in view through useRowsPage. One read at a time, whatever changes meanwhile read
// once after it; a filter that keeps fewer rows than the page in view shows its last page; another run
// starts at its first page, and an answer for a run no longer shown is dropped.
import { describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { effectScope, nextTick, ref } from 'vue';
import { useRowsPage } from '@/composables/rows-page';

interface Asked {
  id: string;
  offset: number;
  onlyProblems: boolean;
  answer(total: number): void;
}

/** A host whose answers the test gives one by one. */
function pagedRun() {
  const asked: Asked[] = [];
  let inFlight = 0;
  let most = 0;
  const runId = ref('a');
  const version = ref(0);
  const onlyProblems = ref(false);
  const scope = effectScope();
  const paged = scope.run(() =>
    useRowsPage({
      runId: () => runId.value,
      changed: [version],
      onlyProblems,
      pageSize: 10,
      read: (id, window) =>
        new Promise<{ total: number; rows: string[] }>((resolve) => {
          most = Math.max(most, (inFlight += 1));
          asked.push({
            id,
            offset: window.offset,
            onlyProblems: window.onlyProblems,
            answer: (total) => {
              inFlight -= 1;
              resolve({ total, rows: [`${id}@${window.offset}`] });
            },
          });
        }),
    }),
  );
  if (!paged) throw new Error('no page');
  return { asked, paged, runId, version, onlyProblems, most: () => most, stop: () => scope.stop() };
}

describe('a page of a run’s rows', () => {
  // Fails when a change during a read starts a second one beside it, or is lost (mutation: no readAgain).
  it('is read one at a time, the changes meanwhile read once after it', async () => {
    const run = pagedRun();
    expect(run.asked).toHaveLength(1);
    run.version.value += 1;
    await nextTick();
    run.version.value += 1;
    await nextTick();
    expect(run.asked).toHaveLength(1);
    run.asked[0]?.answer(100);
    await flushPromises();
    expect(run.asked).toHaveLength(2);
    run.asked[1]?.answer(100);
    await flushPromises();
    expect(run.asked).toHaveLength(2);
    expect(run.most()).toBe(1);
    expect(run.paged.answer.value?.rows).toEqual(['a@0']);
    run.stop();
  });

  // Fails when the page is not clamped (mutation: no last-page check): the table would show an empty page.
  it('shows the last page when the rows kept are fewer than the page in view, and the filter’s first', async () => {
    const run = pagedRun();
    run.asked[0]?.answer(100);
    await flushPromises();
    run.paged.setPage(8);
    await flushPromises();
    expect(run.asked[1]?.offset).toBe(70);
    // The run lost rows meanwhile (a paused batch's rows removed): 25 are left.
    run.asked[1]?.answer(25);
    await flushPromises();
    expect(run.paged.page.value).toBe(3);
    expect(run.asked[2]?.offset).toBe(20);
    run.asked[2]?.answer(25);
    await flushPromises();
    expect(run.paged.answer.value?.rows).toEqual(['a@20']);
    expect(run.paged.pagination.value).toEqual({ page: 3, pageSize: 10, itemCount: 25 });
    run.onlyProblems.value = true;
    await flushPromises();
    expect(run.asked[3]).toMatchObject({ onlyProblems: true, offset: 0 });
    run.stop();
  });

  it('starts another run at its first page, dropping the answer for the one no longer shown', async () => {
    const run = pagedRun();
    run.asked[0]?.answer(100);
    await flushPromises();
    run.paged.setPage(4);
    await flushPromises();
    run.runId.value = 'b';
    await flushPromises();
    run.asked[1]?.answer(100);
    await flushPromises();
    expect(run.paged.answer.value).toBeNull();
    expect(run.asked[2]).toMatchObject({ id: 'b', offset: 0 });
    run.asked[2]?.answer(5);
    await flushPromises();
    expect(run.paged.answer.value?.rows).toEqual(['b@0']);
    run.stop();
  });
});
