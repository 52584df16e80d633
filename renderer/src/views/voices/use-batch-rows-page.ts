import { computed, type Ref } from 'vue';
import type { BatchRowView, BatchView } from '@common/bridge';
import { call } from '@/bridge';
import { useRowsPage } from '@/composables/rows-page';

/** Rows a page of the table shows. */
export const BATCH_PAGE_SIZE = 50;
/** The least time between two reads of the page in view: a running batch changes several times a second. */
export const BATCH_PAGE_GAP_MS = 400;

/**
 * The page of a batch's rows in view, read from the host (batches.rows) whenever the batch was read
 * again (a new `batch`), the filter or the page changed, as useRowsPage reads a run's pages.
 */
export function useBatchRowsPage(batch: () => BatchView, onlyProblems: Ref<boolean>) {
  const { answer, total, pagination, setPage } = useRowsPage({
    runId: () => batch().id,
    changed: [batch],
    onlyProblems,
    pageSize: BATCH_PAGE_SIZE,
    gapMs: BATCH_PAGE_GAP_MS,
    read: (id, { offset, limit, onlyProblems: problems }) =>
      call('batches.rows', id, { offset, limit, filter: problems ? 'problems' : 'all' }),
  });
  const rows = computed<BatchRowView[]>(() => answer.value?.rows ?? []);
  const problems = computed(() => answer.value?.problems ?? 0);
  return { rows, total, problems, pagination, setPage };
}
