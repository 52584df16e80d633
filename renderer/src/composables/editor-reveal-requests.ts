import { watch } from 'vue';
import { useEditorReveal } from '@/stores/editor-reveal';
import type { useProjectStore } from '@/stores/project';

interface Opener {
  /** Asks to save or drop unsaved changes; false when the user stayed. */
  leaveCurrent(): Promise<boolean>;
  open(id: string): Promise<void>;
}

/**
 * A failed job in the Library asked to show where its broken element is: open its project (asking
 * about unsaved changes first), then select that scene and element.
 */
export function useRevealRequests(
  project: ReturnType<typeof useProjectStore>,
  files: Opener,
  selectScene: (id: string) => void,
): void {
  const requests = useEditorReveal();
  watch(
    () => requests.pending,
    async (place) => {
      if (!place) return;
      requests.take();
      if (project.doc.id !== place.projectId) {
        if (!(await files.leaveCurrent())) return;
        await files.open(place.projectId);
        if (project.doc.id !== place.projectId) return;
      }
      const scene = project.doc.scenes[place.sceneIndex];
      if (!scene) return;
      selectScene(scene.id);
      if (place.elementId && scene.elements.some((e) => e.id === place.elementId)) project.select([place.elementId]);
    },
    { immediate: true },
  );
}
