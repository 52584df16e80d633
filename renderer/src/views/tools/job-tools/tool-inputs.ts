import type { JobView } from '@common/bridge';
import { JOB_KIND_REGISTRY, JOB_KINDS } from '@common/jobs/kinds';
import type { JobQuerySpec } from '@/stores/job-query';

export type InputKind = 'video' | 'audio' | 'image';

/** Which finished jobs give a usable input of each kind (the kind registry says what each leaves). */
const offers = (kind: JobView['kind'], input: InputKind): boolean => {
  const result = JOB_KIND_REGISTRY[kind].result;
  return result.offeredAsInput && result.media === input;
};

/** How many Library results an input offers: the newest. */
export const LIBRARY_CHOICES_SHOWN = 100;

const usable = (job: JobView, now: number): boolean =>
  job.phase === 'completed' && !!job.resultUrl && (job.expiresAt === null || job.expiresAt > now);

/** An input's question of the host: the newest completed jobs whose result is of its kind, with a live link. */
export const libraryChoicesQuery = (kind: InputKind): JobQuerySpec => ({
  name: `library-choices-${kind}`,
  filter: { kinds: JOB_KINDS.filter((k) => offers(k, kind)), phases: ['completed'] },
  limit: LIBRARY_CHOICES_SHOWN,
  keep: (job) => usable(job, Date.now()),
});

/** Library results that can be an input: completed, with a link that has not expired. */
export function libraryChoices(
  jobs: readonly JobView[],
  kind: InputKind,
  now: number,
): { label: string; value: string }[] {
  return jobs
    .filter((j) => usable(j, now) && offers(j.kind, kind))
    .map((j) => ({ label: `${j.summary} · ${new Date(j.createdAt).toLocaleString()}`, value: j.resultUrl as string }));
}

export const isLink = (value: string): boolean => /^https?:\/\/[^\s/]+/i.test(value.trim());
export const isLocal = (value: string): boolean => value.trim().startsWith('file:');
/** What the host can measure: a link or a local file the user chose. */
export const isUsable = (value: string): boolean => isLink(value) || isLocal(value);
