import { computed, onScopeDispose, shallowRef, watch, type ComputedRef } from 'vue';
import type { JobView } from '@common/bridge';
import type { LiveJobQuery, JobQuerySpec } from '@/stores/job-query';
import { questionKey } from '@/stores/job-query';

/** What a view needs of the jobs store to hold a question (the store, or a test's fake). */
export interface JobQueries {
  hold(spec: JobQuerySpec): { query: Pick<LiveJobQuery, 'rows'>; release: () => void };
}

/**
 * The jobs a view shows: its question (null: none now) asked of the host a page at a time and kept
 * current by the host's news, asked again when the question changes (another project opened), let go
 * of when the view goes. Call during setup.
 */
export function useJobQuery(jobs: JobQueries, spec: () => JobQuerySpec | null): ComputedRef<readonly JobView[]> {
  const held = shallowRef<ReturnType<JobQueries['hold']> | null>(null);
  watch(
    () => {
      const asked = spec();
      return asked ? { asked, key: questionKey(asked) } : null;
    },
    (next, before) => {
      if (next?.key === before?.key && held.value) return;
      const last = held.value;
      held.value = next ? jobs.hold(next.asked) : null;
      last?.release();
    },
    { immediate: true },
  );
  onScopeDispose(() => held.value?.release());
  return computed(() => held.value?.query.rows.value ?? []);
}
