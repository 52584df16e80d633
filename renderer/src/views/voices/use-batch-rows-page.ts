import { computed, ref, shallowRef, watch, type Ref } from 'vue';
import type { BatchRowView, BatchView } from '@common/bridge';
import { call } from '@/bridge';

/** Rows a page of the table shows. */
export const BATCH_PAGE_SIZE = 50;
/** The least time between two reads of the page in view: a running batch changes several times a second. */
export const BATCH_PAGE_GAP_MS = 400;

/**
 * The page of a batch's rows in view, read from the host (batches.rows) whenever the batch was read
 * again (a new `batch`), the filter or the page changed. One read at a time, at most one every
 * BATCH_PAGE_GAP_MS; changes while one is under way are read once after it, never side by side.
 */
export function useBatchRowsPage(batch: () => BatchView, onlyProblems: Ref<boolean>) {
  const page = ref(1);
  const rows = shallowRef<BatchRowView[]>([]);
  const total = ref(0);
  const problems = ref(0);
  const pagination = computed(() => ({ page: page.value, pageSize: BATCH_PAGE_SIZE, itemCount: total.value }));

  let reading = false;
  let readAgain = false;
  let lastRead = 0;
  async function readRows(): Promise<void> {
    if (reading) return void (readAgain = true);
    reading = true;
    try {
      do {
        readAgain = false;
        const wait = lastRead + BATCH_PAGE_GAP_MS - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        lastRead = Date.now();
        const id = batch().id;
        const filter = onlyProblems.value ? ('problems' as const) : ('all' as const);
        const query = { offset: (page.value - 1) * BATCH_PAGE_SIZE, limit: BATCH_PAGE_SIZE, filter };
        const read = await call('batches.rows', id, query).catch(() => null);
        if (read === null || id !== batch().id) continue;
        // A filter that keeps fewer rows than the page in view was at: its last page is shown.
        const last = Math.max(1, Math.ceil(read.total / BATCH_PAGE_SIZE));
        if (page.value > last) {
          page.value = last;
          readAgain = true;
        }
        rows.value = read.rows;
        total.value = read.total;
        problems.value = read.problems;
      } while (readAgain);
    } finally {
      reading = false;
    }
  }
  watch(
    () => batch().id,
    () => {
      page.value = 1;
      rows.value = [];
    },
  );
  watch(onlyProblems, () => (page.value = 1));
  watch([batch, onlyProblems, page], () => void readRows(), { immediate: true });

  return {
    rows,
    total,
    problems,
    pagination,
    setPage: (next: number) => (page.value = next),
  };
}
