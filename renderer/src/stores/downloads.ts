import { defineStore } from 'pinia';
import { computed, ref, shallowRef, triggerRef } from 'vue';
import type { DownloadRequest, DownloadTotals, DownloadView } from '@common/bridge';
import { MAX_PAGE_JOBS } from '@common/bridge/job-pages';
import { call, onEvent } from '@/bridge';

/** A download still moving or able to move: the page keeps it whoever shows it (the queue's own lines). */
const underWay = (entry: DownloadView): boolean =>
  entry.state === 'queued' || entry.state === 'downloading' || entry.state === 'paused';

/**
 * What the page knows of the host's download queue: the downloads under way, and every copy of the jobs
 * some part of the page shows (`follow`), by id and by job, and the totals. A folder of a million jobs
 * has hundreds of thousands of saved copies: the page holds those of the rows in view, asked of the
 * host by job as they come into view, and lets them go as they leave. The host owns the downloads; this
 * store shows them and forwards the user's actions.
 */
export const useDownloadsStore = defineStore('downloads', () => {
  const byId = shallowRef(new Map<string, DownloadView>());
  /** Counts each news of a copy from the host (saved, lost, found again), not the copies asked for by a scroll. */
  const copiesChanged = ref(0);
  /** The jobs each part of the page shows (the Library's rows in view, a batch's rows), by who shows them. */
  const followed = new Map<string, ReadonlySet<string>>();
  /** Jobs whose copies were asked of the host and are kept here until no part shows them. */
  const asked = new Set<string>();
  /** Those of them whose answer has come: until then the page does not know whether a job has a copy. */
  const answered = shallowRef(new Set<string>());
  const isFollowed = (jobId: string): boolean => [...followed.values()].some((jobs) => jobs.has(jobId));
  const wanted = (entry: DownloadView): boolean => underWay(entry) || isFollowed(entry.jobId);
  const totals = ref<DownloadTotals>({
    active: 0,
    bytes: 0,
    totalBytes: 0,
    unknownSizes: 0,
    pausedReason: null,
    waiting: 0,
    open: 0,
    files: 0,
    saved: 0,
    fraction: 0,
  });
  const preferences = ref<{
    folder: string | null;
    template: string;
    canChooseFolder: boolean;
    canShowInFolder: boolean;
  } | null>(null);
  let stop: (() => void) | undefined;

  /** Every download of each job (its copies), newest first. */
  const byJob = computed(() => {
    const out = new Map<string, DownloadView[]>();
    for (const entry of byId.value.values()) {
      const list = out.get(entry.jobId);
      if (list) list.push(entry);
      else out.set(entry.jobId, [entry]);
    }
    for (const list of out.values()) list.sort((a, b) => b.createdAt - a.createdAt);
    return out;
  });

  /** Keeps each entry's newest state; answers the number of entries that changed. */
  function merge(entries: Iterable<DownloadView>): number {
    let changed = 0;
    for (const entry of entries) {
      // An answer can arrive after events that were sent later (a file that failed at once, before the
      // call that queued it answered): the newer state wins.
      const known = byId.value.get(entry.id);
      if (known && known.updatedAt > entry.updatedAt) continue;
      byId.value.set(entry.id, entry);
      changed += 1;
    }
    return changed;
  }

  /** Lets go of the copies no part of the page shows (a job scrolled out of view, a batch closed). */
  function prune(): boolean {
    let dropped = false;
    for (const [id, entry] of byId.value)
      if (!wanted(entry)) {
        byId.value.delete(id);
        dropped = true;
      }
    for (const jobId of asked)
      if (!isFollowed(jobId)) {
        asked.delete(jobId);
        answered.value.delete(jobId);
      }
    return dropped;
  }

  function put(...entries: DownloadView[]): void {
    const changed = merge(entries.filter((entry) => wanted(entry) || byId.value.has(entry.id)));
    if (prune() || changed > 0) triggerRef(byId);
  }

  /** Asks the host for the copies of jobs not asked yet, a page of jobs at a time. */
  async function ask(jobIds: readonly string[]): Promise<void> {
    const fresh = jobIds.filter((jobId) => !asked.has(jobId));
    for (const jobId of fresh) asked.add(jobId);
    for (let from = 0; from < fresh.length; from += MAX_PAGE_JOBS) {
      const page = fresh.slice(from, from + MAX_PAGE_JOBS);
      put(...(await call('downloads.ofJobs', page)));
      for (const jobId of page) if (asked.has(jobId)) answered.value.add(jobId);
      triggerRef(answered);
    }
  }

  /**
   * Keeps the copies of these jobs (and only these, for this part of the page) and asks the host for
   * those not known yet: the Library follows its rows in view, a batch its rows.
   */
  function follow(part: string, jobIds: readonly string[]): Promise<void> {
    followed.set(part, new Set(jobIds));
    if (prune()) triggerRef(byId);
    return ask(jobIds);
  }

  function unfollow(part: string): void {
    followed.delete(part);
    if (prune()) triggerRef(byId);
  }

  // Events are taken in together, at most every EVENTS_EVERY_MS: 10,000 downloads queued at once send
  // 10,000 events, and each one re-deriving the per-job lists and re-drawing the Library froze the page
  // for minutes.
  const EVENTS_EVERY_MS = 100;
  const arrived = new Map<string, DownloadView>();
  let takeIn: ReturnType<typeof setTimeout> | undefined;
  function heard(entry: DownloadView): void {
    const waiting = arrived.get(entry.id);
    if (!waiting || waiting.updatedAt <= entry.updatedAt) arrived.set(entry.id, entry);
    takeIn ??= setTimeout(() => {
      takeIn = undefined;
      const batch = [...arrived.values()];
      arrived.clear();
      put(...batch);
      copiesChanged.value += 1;
    }, EVENTS_EVERY_MS);
  }

  async function load(): Promise<void> {
    if (!stop) {
      const offChanged = onEvent('downloads.changed', heard);
      const offProgress = onEvent('downloads.progress', (value) => (totals.value = value));
      stop = () => {
        offChanged();
        offProgress();
      };
      // What was held before listening may have changed meanwhile: it is asked for again.
      byId.value = new Map();
      asked.clear();
      answered.value = new Set();
    }
    const [entries, now, prefs] = await Promise.all([
      call('downloads.list'),
      call('downloads.totals'),
      call('downloads.preferences'),
    ]);
    put(...entries);
    totals.value = now;
    preferences.value = prefs;
    // The jobs shown before anything listened (those asked since are not asked twice).
    await ask([...new Set([...followed.values()].flatMap((jobs) => [...jobs]))]);
    // Then every saved copy is looked at on disk, in the host; each one found lost arrives as news.
    await call('downloads.check');
  }

  function dispose(): void {
    stop?.();
    stop = undefined;
    clearTimeout(takeIn);
    takeIn = undefined;
    arrived.clear();
  }

  async function start(request: DownloadRequest) {
    const result = await call('downloads.start', request);
    put(...result.queued);
    preferences.value = preferences.value
      ? { ...preferences.value, folder: request.folder, template: request.template ?? preferences.value.template }
      : null;
    return result;
  }

  const act = (channel: 'downloads.pause' | 'downloads.resume' | 'downloads.cancel') => async (id: string) =>
    put(await call(channel, id));

  return {
    byId,
    byJob,
    copiesChanged,
    totals,
    follow,
    unfollow,
    /** Whether this job's copies are known here (its answer came): what is shown of a result waits for it. */
    copiesKnown: (jobId: string) => answered.value.has(jobId),
    preferences,
    load,
    dispose,
    start,
    pause: act('downloads.pause'),
    resume: act('downloads.resume'),
    cancel: act('downloads.cancel'),
    resumeAll: async () => void (totals.value = await call('downloads.resumeAll')),
    pauseAll: () => call('downloads.pauseAll'),
    cancelAll: () => call('downloads.cancelAll'),
    openCopy: (id: string) => call('downloads.openCopy', id),
    checkFolder: (folder: string) => call('downloads.checkFolder', folder),
    chooseFolder: () => call('downloads.chooseFolder'),
    showInFolder: (id: string) => call('downloads.showInFolder', id),
  };
});
