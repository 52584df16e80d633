/** A job as the id matcher sees it: the studio's id and the service's. */
export interface IdentifiedJob {
  id: string;
  remoteId: string | null;
}

/**
 * The job a user names: by the studio's id or the service's (files are named with the service's), in
 * full or by its first characters. Answers the job, or the sentence saying why none is chosen.
 */
export function matchJob<T extends IdentifiedJob>(jobs: readonly T[], key: string): { job: T } | { problem: string } {
  const wanted = key.trim();
  if (wanted === '') return { problem: "Give the job id (the studio's or the service's), or its first characters" };
  const exact = jobs.find((j) => j.id === wanted) ?? jobs.find((j) => j.remoteId === wanted);
  if (exact) return { job: exact };
  const matches = jobs.filter((j) => j.id.startsWith(wanted) || (j.remoteId ?? '').startsWith(wanted));
  if (matches.length === 1) return { job: matches[0] };
  if (matches.length === 0) return { problem: `No job matches "${wanted}" (neither a studio id nor a service id)` };
  return { problem: `"${wanted}" matches ${matches.length} jobs; give more characters` };
}
