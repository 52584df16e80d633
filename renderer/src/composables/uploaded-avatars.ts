import { isActivePhase, type JobView } from '@common/bridge';
import type { CatalogueAvatar } from '@/stores/editor-assets';

/**
 * The editor's avatars with every upload still under way marked as processing: the service's own
 * status says so where its list carries one, the job ledger says so where it does not, and an upload
 * the service does not list yet is shown from its job. Such an avatar cannot be used until it is ready
 * (a stream avatar only at status 3, and the service refuses any upload before then).
 */
export function withUploadStates(
  avatars: readonly CatalogueAvatar[],
  jobs: readonly JobView[],
  connectionId: string | null,
): CatalogueAvatar[] {
  const pending = new Map<string, JobView>();
  for (const job of jobs) {
    if (
      job.kind !== 'avatar-upload' ||
      !isActivePhase(job.phase) ||
      (connectionId !== null && job.connectionId !== connectionId)
    )
      continue;
    const avatarId = (job.request as { avatar_id?: unknown } | null)?.avatar_id;
    if (typeof avatarId === 'string') pending.set(avatarId, job);
  }
  const marked = avatars.map((a) => (pending.has(a.avatarId) && !a.processing ? { ...a, processing: true } : a));
  const listed = new Set(avatars.map((a) => a.avatarId));
  const unlisted = [...pending]
    .filter(([avatarId]) => !listed.has(avatarId))
    .map(([avatarId, job]): CatalogueAvatar => {
      const request = job.request as { name?: unknown; url?: unknown };
      return {
        avatarId,
        name: typeof request.name === 'string' && request.name ? request.name : avatarId,
        url: typeof request.url === 'string' ? request.url : '',
        thumbnailUrl: null,
        from: 3,
        gender: null,
        processing: true,
      };
    });
  return [...marked, ...unlisted];
}
