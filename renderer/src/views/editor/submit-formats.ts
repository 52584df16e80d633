import { computed, shallowRef, watch, type ComputedRef, type Ref } from 'vue';
import { formatProjects, type Project } from '@common/composition';
import { formatMeasure } from './reframe-apply';

/**
 * The projects Create makes: the one being edited, then each other format as a plain project of its
 * size. A format's text laid out again (an element added or restyled since the format was made) is
 * measured by the page's rasteriser first, so the body shown is the body sent; until then: null.
 */
export function useFormatProjects(
  project: () => Project,
  show: () => boolean,
): { projects: ComputedRef<Project[] | null>; error: Ref<string | null> } {
  const measured = shallowRef<{ of: Project; projects: Project[] } | null>(null);
  const error = shallowRef<string | null>(null);
  watch(
    [project, show] as const,
    async ([p, shown]) => {
      if (!shown || !p.formats?.length || measured.value?.of === p) return;
      error.value = null;
      try {
        const measure = await formatMeasure(p);
        if (project() === p) measured.value = { of: p, projects: formatProjects(p, { measure }) };
      } catch (failure) {
        error.value = `The other formats could not be laid out: ${(failure as Error).message}`;
      }
    },
    { immediate: true },
  );
  const projects = computed<Project[] | null>(() => {
    const p = project();
    if (!p.formats?.length) return [p];
    return measured.value?.of === p ? measured.value.projects : null;
  });
  return { projects, error };
}
