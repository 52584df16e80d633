import { defineStore } from 'pinia';
import { computed, ref, shallowRef, triggerRef } from 'vue';
import type { DownloadRequest, DownloadTotals, DownloadView } from '@common/bridge';
import { call, onEvent } from '@/bridge';

/**
 * The host's download queue, mirrored: every entry by id, the newest per job for the Library's column,
 * and the totals. The host owns the downloads; this store shows them and forwards the user's actions.
 */
export const useDownloadsStore = defineStore('downloads', () => {
  const byId = shallowRef(new Map<string, DownloadView>());
  const totals = ref<DownloadTotals>({
    active: 0,
    bytes: 0,
    totalBytes: 0,
    unknownSizes: 0,
    pausedReason: null,
    waiting: 0,
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

  function put(...entries: DownloadView[]): void {
    if (merge(entries) > 0) triggerRef(byId);
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
    }
    const [entries, now, prefs] = await Promise.all([
      call('downloads.list'),
      call('downloads.totals'),
      call('downloads.preferences'),
    ]);
    byId.value = new Map(entries.map((e) => [e.id, e]));
    totals.value = now;
    preferences.value = prefs;
    // Then every saved copy is looked at on disk (a lost one is fetched again); the rows follow.
    const checked = await call('downloads.check');
    byId.value = new Map(checked.map((e) => [e.id, e]));
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
    totals,
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
