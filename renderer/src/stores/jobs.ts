import { defineStore } from 'pinia';
import { ref, shallowRef, triggerRef } from 'vue';
import type { JobSubmission, JobView, SubmitResult } from '@common/bridge';
import { isFinalPhase, JOB_PHASES, isActivePhase } from '@common/bridge';
import { call, onEvent } from '@/bridge';
import { sharedFirstLoad } from './first-load';
import { LiveJobQuery, questionKey, type JobQuerySpec } from './job-query';

/** Answers "send it again?" for a duplicate submission; the UI shows the message and resolves true to send. */
export type ConfirmDuplicate = (message: string, existing: JobView) => Promise<boolean>;

/** The most jobs heard of that are kept beside the ones this page follows (a batch's thousands pass by). */
export const MOST_HEARD = 1_000;

/**
 * The avatar uploads still with the service: the editor's asset panel and its problems mark their
 * avatars as processing. Asked at the editor's start (composables/first-screen.ts), and kept.
 */
export const UPLOADS_UNDER_WAY: JobQuerySpec = {
  name: 'uploads-under-way',
  filter: { kinds: ['avatar-upload'], phases: JOB_PHASES.filter(isActivePhase) },
  limit: 500,
};

/** Which of two views of one job is the later: a final phase, else more polls (ties: the one heard). */
const later = (heard: JobView, answered: JobView): JobView =>
  isFinalPhase(answered.phase) && !isFinalPhase(heard.phase)
    ? answered
    : isFinalPhase(heard.phase) || heard.polls >= answered.polls
      ? heard
      : answered;

/**
 * The jobs this page is shown, never every job the host follows (a ledger may hold a million): each
 * view holds a question (`hold`: a filter, an order, a limit), answered with `jobs.page` and kept
 * current by `jobs.changed` / `jobs.removed`. `byId` has the jobs sent or followed from here and the
 * latest ones heard of. The host owns the jobs; this store only mirrors some and forwards the user's actions.
 */
export const useJobsStore = defineStore('jobs', () => {
  // One Map, triggered by hand: frequent updates stay cheap.
  const byId = shallowRef(new Map<string, JobView>());
  /** Jobs sent or followed from this page: never let go of for newer news of others. */
  const followed = new Set<string>();
  const questions = new Map<string, { query: LiveJobQuery; users: number; kept: boolean }>();
  const loaded = ref(false);
  const loadError = ref<string | null>(null);
  const now = ref(Date.now());
  let stop: (() => void) | undefined;

  function remember(job: JobView): void {
    const map = byId.value;
    map.delete(job.id); // the newest news last: the oldest is let go of first
    map.set(job.id, job);
    if (map.size > MOST_HEARD + followed.size)
      for (const id of map.keys()) {
        if (map.size <= MOST_HEARD + followed.size) break;
        if (!followed.has(id)) map.delete(id);
      }
    triggerRef(byId);
  }

  /** A job as it is now: kept, and put in (or out of) every question's answer. */
  function put(job: JobView): void {
    remember(job);
    for (const { query } of questions.values()) query.offer(job);
  }

  function forget(id: string): void {
    followed.delete(id);
    if (byId.value.delete(id)) triggerRef(byId);
    for (const { query } of questions.values()) query.drop(id);
  }

  /** Listens for the host's news of jobs (once); every question and followed job is kept current by it. */
  function start(): void {
    if (stop) return;
    const offChanged = onEvent('jobs.changed', put);
    const offRemoved = onEvent('jobs.removed', ({ id }) => forget(id));
    const ticker = window.setInterval(() => (now.value = Date.now()), 5_000);
    stop = () => {
      offChanged();
      offRemoved();
      window.clearInterval(ticker);
    };
  }

  /**
   * A view's question, asked of the host the first time and shared by every view asking it; `release`
   * when the view goes. A kept one (the editor's start) stays for the life of the page.
   */
  function hold(spec: JobQuerySpec, { keep = false } = {}): { query: LiveJobQuery; release: () => void } {
    start();
    const key = questionKey(spec);
    let held = questions.get(key);
    if (!held) {
      held = { query: new LiveJobQuery(spec, (query) => call('jobs.page', query)), users: 0, kept: false };
      questions.set(key, held);
      void held.query.load();
    }
    const it = held;
    it.users += 1;
    it.kept ||= keep;
    let released = false;
    return {
      query: it.query,
      release: () => {
        if (released) return;
        released = true;
        it.users -= 1;
        if (it.users > 0 || it.kept) return;
        it.query.dispose();
        questions.delete(key);
      },
    };
  }

  /** The editor's start: news of jobs, and the uploads under way its asset panel marks. */
  async function load(): Promise<void> {
    const { query } = hold(UPLOADS_UNDER_WAY, { keep: true });
    await query.load();
    loadError.value = query.error.value;
    loaded.value = true;
    now.value = Date.now();
  }

  const ensureLoaded = sharedFirstLoad(load, () => loadError.value !== null || !stop);

  function dispose(): void {
    stop?.();
    stop = undefined;
    for (const { query } of questions.values()) query.dispose();
    questions.clear();
  }

  /** A job this page sent (or shows the result of): kept, and its news followed, from now. */
  function follow(job: JobView): JobView {
    start();
    followed.add(job.id);
    const heard = byId.value.get(job.id);
    const current = heard ? later(heard, job) : job;
    put(current);
    return current;
  }

  async function submit(submission: JobSubmission): Promise<SubmitResult> {
    start();
    const result = await call('jobs.submit', submission);
    follow(result.status === 'submitted' ? result.job : result.existing);
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
    forget(id);
  }

  async function refresh(id: string): Promise<void> {
    follow(await call('jobs.refresh', id));
  }

  return {
    byId,
    loaded,
    loadError,
    now,
    start,
    hold,
    ensureLoaded,
    dispose,
    follow,
    submit,
    submitWithConfirm,
    remove,
    refresh,
  };
});
