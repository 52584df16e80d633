import { computed, ref, shallowRef, watch, type Ref, type WatchSource } from 'vue';

/** What a host answers for a page of a run's rows (batches.rows, campaigns.rows): the filter's total and the window. */
export interface RowsPageAnswer {
  total: number;
  rows: readonly unknown[];
}

export interface RowsPageOptions<Answer extends RowsPageAnswer> {
  /** The run shown: another one starts again at its first page. */
  runId: () => string;
  /** Whatever else asks for the page in view again (the run read again, news of its copies). */
  changed: WatchSource[];
  /** "Only rows with a problem": a change shows the first page of the filter. */
  onlyProblems: Ref<boolean>;
  pageSize: number;
  /** The least time between two reads; a running run changes several times a second. */
  gapMs?: number;
  /** Asks the host for the window. */
  read(id: string, window: { offset: number; limit: number; onlyProblems: boolean }): Promise<Answer>;
}

/**
 * The page of a run's rows in view, read from the host whenever the run, the filter or the page changed:
 * the batch's table and the campaign's grid both page a run of thousands of rows this way. One read at a
 * time, at most one every `gapMs`; changes while one is under way are read once after it, never side by
 * side. A filter that keeps fewer rows than the page in view was at shows its last page. A read that
 * fails keeps what is shown (the next change reads again); one for a run no longer shown is dropped.
 */
export function useRowsPage<Answer extends RowsPageAnswer>(options: RowsPageOptions<Answer>) {
  const { runId, onlyProblems, pageSize, gapMs = 0 } = options;
  const page = ref(1);
  /** The host's answer for the page in view; null before the first (and while another run's is awaited). */
  const answer = shallowRef<Answer | null>(null);
  const total = computed(() => answer.value?.total ?? 0);
  const pagination = computed(() => ({ page: page.value, pageSize, itemCount: total.value }));

  let reading = false;
  let readAgain = false;
  let lastRead = 0;
  async function readPage(): Promise<void> {
    if (reading) return void (readAgain = true);
    reading = true;
    try {
      do {
        readAgain = false;
        const wait = lastRead + gapMs - Date.now();
        if (gapMs > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        lastRead = Date.now();
        const id = runId();
        const window = { offset: (page.value - 1) * pageSize, limit: pageSize, onlyProblems: onlyProblems.value };
        const read = await options.read(id, window).catch(() => null);
        if (read === null || id !== runId()) continue;
        // The page's own watch reads the last page, once: asking here too read it twice.
        const last = Math.max(1, Math.ceil(read.total / pageSize));
        if (page.value > last) page.value = last;
        answer.value = read;
      } while (readAgain);
    } finally {
      reading = false;
    }
  }
  watch(runId, () => {
    page.value = 1;
    answer.value = null;
  });
  watch(onlyProblems, () => (page.value = 1));
  watch([runId, ...options.changed, onlyProblems, page], () => void readPage(), { immediate: true });

  return { page, answer, total, pagination, setPage: (next: number) => (page.value = next) };
}
