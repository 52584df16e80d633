import { onMounted, ref, type Ref } from 'vue';
import { useResizeObserver } from '@vueuse/core';

/**
 * The size of the canvas panel in whole pixels, read as the editor mounts and kept by a resize
 * observer, and whether it has been read yet. (useElementSize set it back to 0 just after mounting,
 * when it saw its element appear, until the observer's first report: the stage was resized and drawn
 * three times before the first frame.)
 */
export function usePanelSize(panel: Ref<HTMLElement | null>): {
  width: Ref<number>;
  height: Ref<number>;
  measured: Ref<boolean>;
} {
  const width = ref(0);
  const height = ref(0);
  const measured = ref(false);
  const measure = (): void => {
    if (!panel.value) return;
    width.value = panel.value.clientWidth;
    height.value = panel.value.clientHeight;
  };
  useResizeObserver(panel, measure);
  onMounted(() => {
    measure();
    measured.value = true;
  });
  return { width, height, measured };
}
