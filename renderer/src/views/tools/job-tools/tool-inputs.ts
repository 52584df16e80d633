import type { JobView } from '@common/bridge';
import { JOB_KIND_REGISTRY } from '@common/jobs/kinds';

export type InputKind = 'video' | 'audio' | 'image';

/** Which finished jobs give a usable input of each kind (the kind registry says what each leaves). */
const offers = (job: JobView, input: InputKind): boolean => {
  const result = JOB_KIND_REGISTRY[job.kind].result;
  return result.offeredAsInput && result.media === input;
};

/** Library results that can be an input: completed, with a link that has not expired. */
export function libraryChoices(
  jobs: readonly JobView[],
  kind: InputKind,
  now: number,
): { label: string; value: string }[] {
  return jobs
    .filter(
      (j) => j.phase === 'completed' && j.resultUrl && offers(j, kind) && (j.expiresAt === null || j.expiresAt > now),
    )
    .map((j) => ({ label: `${j.summary} · ${new Date(j.createdAt).toLocaleString()}`, value: j.resultUrl as string }));
}

export const isLink = (value: string): boolean => /^https?:\/\/[^\s/]+/i.test(value.trim());
export const isLocal = (value: string): boolean => value.trim().startsWith('file:');
/** What the host can measure: a link or a local file the user chose. */
export const isUsable = (value: string): boolean => isLink(value) || isLocal(value);
