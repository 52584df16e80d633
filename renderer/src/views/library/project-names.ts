import { ref, watch } from 'vue';
import type { JobView } from '@common/bridge';
import { call } from '@/bridge';

/**
 * Names of the projects the Library's jobs name, asked for as new ones appear (any project the library keeps, not only
 * recent ones); an id the host does not know stays unnamed. Call during setup.
 */
export function useProjectNames(projectIds: () => readonly string[], report: (error: unknown) => void) {
  const names = ref(new Map<string, string>());
  const asked = new Set<string>();
  watch(
    projectIds,
    async (ids) => {
      const missing = [...new Set(ids.filter((id) => !asked.has(id)))];
      if (missing.length === 0) return;
      for (const id of missing) asked.add(id);
      try {
        const found = await call('projects.names', missing);
        const next = new Map(names.value);
        for (const [id, name] of Object.entries(found)) if (name !== null) next.set(id, name);
        names.value = next;
      } catch (error) {
        for (const id of missing) asked.delete(id);
        report(error);
      }
    },
    { immediate: true },
  );
  const projectName = (job: JobView): string | null =>
    job.projectId ? (names.value.get(job.projectId) ?? null) : null;
  return { projectNames: names, projectName };
}
