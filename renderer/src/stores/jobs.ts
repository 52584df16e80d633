import { defineStore } from 'pinia';
import { computed, ref, shallowRef, triggerRef } from 'vue';
import type { JobSubmission, JobView, SubmitResult } from '@common/bridge';
import { isActivePhase } from '@common/bridge';
import { call, onEvent } from '@/bridge';
import { sharedFirstLoad } from './first-load';

/** Answers "send it again?" for a duplicate submission; the UI shows the message and resolves true to send. */
export type ConfirmDuplicate = (message: string, existing: JobView) => Promise<boolean>;

/**
 * Every job the host follows, kept current by `jobs.changed` / `jobs.removed` events. The host owns
 * the jobs; this store only mirrors them and forwards the user's actions.
 */
export const useJobsStore = defineStore('jobs', () => {
  // One Map, triggered by hand: thousands of jobs with frequent updates stay cheap.
  const byId = shallowRef(new Map<string, JobView>());
  const loaded = ref(false);
  const loadError = ref<string | null>(null);
  const now = ref(Date.now());
  let stop: (() => void) | undefined;

  const list = computed(() => [...byId.value.values()].sort((a, b) => b.createdAt - a.createdAt));
  const active = computed(() => list.value.filter((j) => isActivePhase(j.phase)));

  function put(job: JobView): void {
    byId.value.set(job.id, job);
    triggerRef(byId);
  }

  async function load(): Promise<void> {
    if (!stop) {
      const offChanged = onEvent('jobs.changed', put);
      const offRemoved = onEvent('jobs.removed', ({ id }) => {
        byId.value.delete(id);
        triggerRef(byId);
      });
      const ticker = window.setInterval(() => (now.value = Date.now()), 5_000);
      stop = () => {
        offChanged();
        offRemoved();
        window.clearInterval(ticker);
      };
    }
    try {
      const jobs = await call('jobs.list');
      byId.value = new Map(jobs.map((j) => [j.id, j]));
      loadError.value = null;
    } catch (error) {
      loadError.value = error instanceof Error ? error.message : String(error);
    } finally {
      loaded.value = true;
      now.value = Date.now();
    }
  }

  const ensureLoaded = sharedFirstLoad(load, () => loadError.value !== null || !stop);

  function dispose(): void {
    stop?.();
    stop = undefined;
  }

  async function submit(submission: JobSubmission): Promise<SubmitResult> {
    const result = await call('jobs.submit', submission);
    put(result.status === 'submitted' ? result.job : result.existing);
    return result;
  }

  /**
   * Submits, and when the host answers "duplicate" asks the user before sending again. Resolves with
   * the new job, or null when the user chose not to send it twice.
   */
  async function submitWithConfirm(submission: JobSubmission, confirm: ConfirmDuplicate): Promise<JobView | null> {
    const first = await submit(submission);
    if (first.status === 'submitted') return first.job;
    if (!(await confirm(first.message, first.existing))) return null;
    const second = await submit({ ...submission, confirmDuplicate: true });
    return second.status === 'submitted' ? second.job : null;
  }

  async function remove(id: string): Promise<void> {
    await call('jobs.remove', id);
    byId.value.delete(id);
    triggerRef(byId);
  }

  async function refresh(id: string): Promise<void> {
    put(await call('jobs.refresh', id));
  }

  return {
    byId,
    list,
    active,
    loaded,
    loadError,
    now,
    load,
    ensureLoaded,
    dispose,
    submit,
    submitWithConfirm,
    remove,
    refresh,
  };
});
