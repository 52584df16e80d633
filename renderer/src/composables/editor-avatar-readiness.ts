import { computed, type ComputedRef } from 'vue';
import { avatarReadinessProblems, type AvatarReadiness, type Problem, type Project } from '@common/composition';
import type { JobView } from '@common/bridge';
import type { CatalogueAvatar } from '@/stores/editor-assets';
import { withUploadStates } from './uploaded-avatars';

export interface AvatarReadinessSources {
  project: () => Project;
  avatars: () => readonly CatalogueAvatar[];
  jobs: () => readonly JobView[];
  connectionId: () => string | null;
  /** Reads the catalogue again (the Create dialog's pre-flight). */
  reload: () => Promise<void>;
}

/**
 * Avatar elements the service cannot use yet: an upload the catalogue or the job ledger says is still
 * processing (the same view the Assets panel shows). A paid job with one would be refused.
 */
export function useAvatarReadiness(from: AvatarReadinessSources): {
  problems: ComputedRef<Problem[]>;
  recheck: () => Promise<Problem[]>;
} {
  const states = computed(
    () =>
      new Map(
        withUploadStates(from.avatars(), from.jobs(), from.connectionId()).map((a): [string, AvatarReadiness] => [
          a.avatarId,
          a.processing ? 'processing' : 'ready',
        ]),
      ),
  );
  const problems = computed(() => avatarReadinessProblems(from.project(), (id) => states.value.get(id)));
  return {
    problems,
    async recheck() {
      await from.reload();
      return problems.value;
    },
  };
}
