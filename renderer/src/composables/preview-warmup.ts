import { watch } from 'vue';
import { call } from '../bridge';
import type { useProjectStore } from '../stores/project';

/** How long the project must stay unchanged before its media are prepared (typing, dragging). */
const SETTLE_MS = 1_200;

/**
 * Keeps the open project's media ready for Preview: after each pause in editing, the host fetches,
 * inspects and proxies what the project uses, in the background, and drops work on media that left.
 * The first Preview then costs what a repeated one does.
 */
export function warmPreviewsAsYouEdit(project: ReturnType<typeof useProjectStore>): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastSent = '';
  const stop = watch(
    () => project.doc,
    (doc) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const shape = JSON.stringify([doc.output, doc.scenes]);
        if (shape === lastSent) return;
        lastSent = shape;
        // Failures are the preview's to explain, against their scene and element.
        call('preview.prepare', doc).catch(() => {
          lastSent = '';
        });
      }, SETTLE_MS);
    },
    { immediate: true },
  );
  return () => {
    clearTimeout(timer);
    stop();
  };
}
