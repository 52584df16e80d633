import { computed, type ComputedRef } from 'vue';
import { isTimed, shownAt, type Scene } from '@common/composition';
import { sceneSpans } from '@/timeline/timeline-math';

/**
 * The canvas and an element's own time in its scene (element-timing.ts): while playing, an element
 * outside its span is left out, as the preview leaves it out; while paused with the playhead outside
 * its span, it is drawn faint (`offstage`), still there to select and edit.
 */
export function useTimedScene(
  shown: ComputedRef<Scene>,
  scenes: ComputedRef<readonly Scene[]>,
  // A getter: the editor makes its playback after the canvas items that read it.
  playback: () => { playing: { value: boolean }; timeMs: { value: number } },
): { played: ComputedRef<Scene>; offstage: ComputedRef<ReadonlySet<string>> } {
  const offstage = computed<ReadonlySet<string>>(() => {
    const scene = shown.value;
    const span = sceneSpans(scenes.value).find((s) => s.id === scene.id);
    if (!span || !scene.elements.some(isTimed)) return new Set();
    const local = Math.max(0, Math.min(scene.durationMs, playback().timeMs.value - span.startMs));
    return new Set(scene.elements.filter((e) => isTimed(e) && !shownAt(e, scene, local)).map((e) => e.id));
  });
  const played = computed<Scene>(() => {
    const scene = shown.value;
    if (!playback().playing.value || offstage.value.size === 0) return scene;
    return { ...scene, elements: scene.elements.filter((e) => !offstage.value.has(e.id)) };
  });
  return { played, offstage };
}
