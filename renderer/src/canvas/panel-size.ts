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
    // A panel with no box is not on screen (the editor kept alive while another workspace shows): the
    // stage keeps its size. Taken as 0 x 0, every canvas of the stage was resized to nothing on leaving
    // the editor and back on returning, 120 ms of the next workspace's first task.
    if (!panel.value || (panel.value.clientWidth === 0 && panel.value.clientHeight === 0)) return;
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
