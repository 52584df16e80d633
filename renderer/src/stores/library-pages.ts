import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { JobView } from '@common/bridge';
import type { JobFilter as HostFilter, JobTotals } from '@common/bridge/job-pages';
import { call, onEvent } from '@/bridge';
import { emptyFilter, type JobFilter } from '@/views/library/job-filters';
import { toHostFilter, toHostSort, type TableSort } from '@/views/library/host-filter';
import { JobWindow } from '@/views/library/job-window';

/** Jobs came or went: the totals and the rows in view are asked again at most this often. */
export const REFRESH_EVERY_MS = 500;

/** A search is asked of the host once typing pauses this long. */
const SEARCH_PAUSE_MS = 250;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The Library's jobs as the host pages them: the rows near the screen for the current filter and
 * order, and the counts and sums of the filter from `jobs.totals`. It never holds every job; the jobs
 * store (every job, for the editor and the tools) is not loaded by it.
 */
export const useLibraryPagesStore = defineStore('library-pages', () => {
  const filter = ref<JobFilter>(emptyFilter());
  /** The filter the rows and totals held are of (a search being typed is asked once typing pauses). */
  const asked = ref<JobFilter>(filter.value);
  /** Project names (they live in the project files): a search asks for the jobs of the projects it names. */
  let projectNames: ReadonlyMap<string, string> = new Map();
  const named = (search: string) =>
    [...projectNames].filter(([, name]) => name.toLowerCase().includes(search.trim().toLowerCase())).map(([id]) => id);
  const hostOf = (of: JobFilter, options: { status?: boolean } = {}) => toHostFilter(of, { ...options, named });
  const tableSort = ref<TableSort | null>(null);
  const askedHost = ref<HostFilter>({});
  const hostFilter = computed<HostFilter>(() => askedHost.value);
  const order = computed(() => toHostSort(tableSort.value));

  /** Every job; the current filter but its status tab (the tabs' counts); the filter itself. */
  const totalsAll = shallowRef<JobTotals | null>(null);
  const totalsTabs = shallowRef<JobTotals | null>(null);
  const totals = shallowRef<JobTotals | null>(null);
  const loaded = ref(false);
  const loadError = ref<string | null>(null);
  const now = ref(Date.now());
  /** Bumped whenever the window's rows change, so views reading rows() read them again. */
  const version = ref(0);

  const window_ = new JobWindow(
    async (offset, limit) =>
      (await call('jobs.page', { filter: hostFilter.value, ...order.value, limit, offset })).jobs,
    () => (version.value += 1),
  );
  /** The filter the totals answer (a new filter's come after its first rows). */
  const countedFor = ref<string | null>(null);
  // Until the filter's totals come, the rows fetched from the top: its first rows show without waiting for the counts.
  const counted = computed(() => totals.value !== null && countedFor.value === JSON.stringify(hostFilter.value));
  const count = computed(() => (counted.value ? totals.value!.count : (version.value, window_.leading)));
  /** Whether `count` is the filter's whole count (its totals came, or its rows from the top ended). */
  const countFinal = computed(() => counted.value || (version.value, window_.complete));

  /**
   * The totals of every job (the filter's choices), of the filter but its tab (the tabs' counts) and of
   * the filter (the cost lines). The sums per project and batch cost a pass over an index each, so they
   * are asked when the filter changes, not at each refresh: a refresh keeps the ones it had.
   */
  async function loadTotals(groups: boolean): Promise<void> {
    const questions = [{}, hostOf(asked.value, { status: false }), hostFilter.value];
    const filterKey = JSON.stringify(hostFilter.value);
    const wantGroups = [groups, false, groups];
    // The same question is asked once (with no filter, all three are one).
    const keys = questions.map((f) => JSON.stringify(f));
    const answers = new Map<string, Promise<JobTotals>>();
    for (const [i, key] of keys.entries()) {
      const withGroups = keys.some((other, j) => other === key && wantGroups[j]);
      if (!answers.has(key)) answers.set(key, call('jobs.totals', questions[i], { groups: withGroups }));
    }
    const [all, tabs, shown] = await Promise.all(keys.map((key) => answers.get(key)!));
    const kept = (fresh: JobTotals, before: JobTotals | null) =>
      groups ? fresh : { ...fresh, projects: before?.projects, batches: before?.batches };
    totalsAll.value = kept(all, totalsAll.value);
    totalsTabs.value = tabs;
    totals.value = kept(shown, totals.value);
    countedFor.value = filterKey;
  }

  /** Everything again: a new filter, or the first look; a new order asks for rows alone (the sums are the same). */
  async function reload({ totals: sums = true } = {}): Promise<void> {
    asked.value = filter.value;
    askedHost.value = hostOf(filter.value);
    window_.reset();
    try {
      // Rows first: asked before the totals, and shown once they come (the host answers in turn).
      const rows = window_.refresh().then(() => (loaded.value = true));
      await Promise.all([rows, sums ? loadTotals(true) : undefined]);
      loadError.value = null;
    } catch (error) {
      loadError.value = describe(error);
    } finally {
      loaded.value = true;
      now.value = Date.now();
    }
  }

  let timer: number | undefined;
  let last = 0;
  let running = false;
  let pending = false;
  /**
   * Jobs came, went or changed phase: the totals and the rows in view again, at most every
   * REFRESH_EVERY_MS, and never while the last refresh is still being answered (on a large folder a
   * filter that reads the records takes seconds: refreshes would pile up on the host).
   */
  function refreshSoon(): void {
    if (timer !== undefined) return;
    const wait = Math.max(0, last + REFRESH_EVERY_MS - Date.now());
    timer = window.setTimeout(() => {
      if (running) {
        timer = undefined;
        return void (pending = true);
      }
      timer = undefined;
      running = true;
      void Promise.all([loadTotals(false), window_.refresh()])
        .catch((error) => (loadError.value = describe(error)))
        .finally(() => {
          running = false;
          last = Date.now();
          if (pending) {
            pending = false;
            refreshSoon();
          }
        });
    }, wait);
  }

  /**
   * Rows in view that changed are drawn again once per animation frame, however many updates came in
   * it: while a campaign runs the host pushes many a second, each its own task, and each drew the whole
   * table again. (A page not shown draws nothing until it is shown again.)
   */
  let frame: number | undefined;
  function redrawSoon(): void {
    frame ??= window.requestAnimationFrame(() => {
      frame = undefined;
      version.value += 1;
    });
  }

  function changed(job: JobView): void {
    const before = window_.update(job);
    if (before) redrawSoon();
    // A progress tick changes nothing the totals or the order count; a new job or a new phase does.
    if (!before || before.phase !== job.phase || before.chargedCredits !== job.chargedCredits) refreshSoon();
  }

  let stop: (() => void) | undefined;
  function start(): Promise<void> {
    if (!stop) {
      const offChanged = onEvent('jobs.changed', changed);
      const offRemoved = onEvent('jobs.removed', () => refreshSoon());
      const ticker = window.setInterval(() => (now.value = Date.now()), 5_000);
      stop = () => {
        offChanged();
        offRemoved();
        window.clearInterval(ticker);
        window.clearTimeout(timer);
        timer = undefined;
        if (frame !== undefined) window.cancelAnimationFrame(frame);
        frame = undefined;
      };
    }
    return reload();
  }

  function dispose(): void {
    stop?.();
    stop = undefined;
  }

  let typing: number | undefined;
  /** Typing a search asks the host once the typing pauses; any other change asks at once. */
  function setFilter(next: JobFilter): Promise<void> {
    const onlySearch = JSON.stringify({ ...next, search: '' }) === JSON.stringify({ ...filter.value, search: '' });
    filter.value = next;
    window.clearTimeout(typing);
    if (!onlySearch) return reload();
    return new Promise((resolve) => (typing = window.setTimeout(() => resolve(reload()), SEARCH_PAUSE_MS)));
  }

  function setSort(next: TableSort | null): Promise<void> {
    tableSort.value = next;
    return reload({ totals: false });
  }

  /** The rows from start to end, null where not fetched yet (read inside a computed: it follows `version`). */
  function rows(start: number, end: number): (JobView | null)[] {
    void version.value;
    return window_.rows(start, Math.min(end, count.value));
  }

  function show(start: number, end: number): void {
    window_.show(start, Math.min(end, count.value)).catch((error) => (loadError.value = describe(error)));
  }

  const find = (id: string): JobView | null => (void version.value, window_.find(id));

  async function refreshJob(id: string): Promise<void> {
    changed(await call('jobs.refresh', id));
  }

  /** The user's own removal is shown at once, not with the next refresh. */
  async function remove(id: string): Promise<void> {
    await call('jobs.remove', id);
    await Promise.all([loadTotals(false), window_.refresh()]);
  }

  return {
    filter,
    tableSort,
    hostFilter,
    order,
    totalsAll,
    totalsTabs,
    totals,
    count,
    countFinal,
    loaded,
    loadError,
    now,
    version,
    start,
    dispose,
    setFilter,
    setSort,
    rows,
    show,
    find,
    refreshJob,
    remove,
    refreshSoon,
    setProjectNames: (names: ReadonlyMap<string, string>) => void (projectNames = names),
    held: () => window_.held,
  };
});
