import { computed, getCurrentInstance, onBeforeUnmount, ref, watch, type ComputedRef, type Ref } from 'vue';
import type { Scene } from '@common/composition';
import { sceneAt, sceneSpans, voiceUrlOf } from '@/timeline/timeline-math';
import type { MediaCache } from './editor-media';
import { isLocalReference } from './local-files';

/** Allowed drift between a playing video or voice and the playhead before it is re-seeked. */
const DRIFT_S = 0.25;

export interface PlaybackDeps {
  scenes: ComputedRef<Scene[]> | Ref<Scene[]>;
  /** Called when the playhead enters another scene, so the canvas shows it. */
  showScene: (id: string) => void;
  media: MediaCache;
  /** An <audio> for the voices; injected so tests can pass a fake. */
  audio?: HTMLAudioElement;
  /**
   * What to play for a scene in place of its voice: the voice with its music mixed under it, once the
   * host has made it (music/canvas-music.ts); undefined plays the voice as it is.
   */
  soundOf?: (sceneId: string) => string | undefined;
  now?: () => number;
  requestFrame?: (cb: () => void) => number;
  cancelFrame?: (id: number) => void;
}

/**
 * Plays the scenes in sequence: one clock (the playhead), and every medium (the scene's voice, its
 * videos) kept within DRIFT_S of it. The canvas redraws itself while `playing` is true.
 */
export function useEditorPlayback(deps: PlaybackDeps) {
  const now = deps.now ?? (() => performance.now());
  const requestFrame = deps.requestFrame ?? ((cb: () => void) => requestAnimationFrame(cb));
  const cancelFrame = deps.cancelFrame ?? ((id: number) => cancelAnimationFrame(id));
  const audio = deps.audio ?? new Audio();

  const playing = ref(false);
  const timeMs = ref(0);
  const spans = computed(() => sceneSpans(deps.scenes.value));
  const totalMs = computed(() => spans.value.reduce((sum, s) => sum + s.durationMs, 0));
  let startedAt = 0;
  let frame: number | null = null;
  let activeIndex = -1;
  /** What the <audio> was last given (its src reads back normalised, so it is not compared). */
  let sounding: string | null = null;

  /** The scene's clips the page plays itself; a local file is shown as a still the host drew (an image). */
  function sceneVideos(scene: Scene): HTMLVideoElement[] {
    return scene.elements
      .filter((e) => e.type === 'video' && e.url)
      .map((e) => deps.media.get(e.url, 'video').element)
      .filter((element): element is HTMLVideoElement => element instanceof HTMLVideoElement);
  }

  function pauseMedia(): void {
    audio.pause();
    for (const v of deps.media.videos()) v.pause();
  }

  function syncMedia(index: number, localMs: number, entering: boolean): void {
    const scene = deps.scenes.value[index];
    if (!scene) return;
    const local = localMs / 1000;
    // The page cannot open a local recording (only the host reads local files): the playhead goes on
    // without it, and Preview, which the host renders, plays it.
    const linked = voiceUrlOf(scene);
    const voice = deps.soundOf?.(scene.id) ?? (linked && !isLocalReference(linked) ? linked : null);
    const sound = (url: string) => {
      if (sounding !== url) audio.src = url;
      sounding = url;
      audio.currentTime = local;
      void audio.play().catch(() => undefined);
    };
    if (entering) {
      pauseMedia();
      if (voice) sound(voice);
      for (const v of sceneVideos(scene)) {
        v.currentTime = local;
        void v.play().catch(() => undefined);
      }
      return;
    }
    // The music's mix arrived while the scene plays: it takes over from the bare voice where it is.
    if (voice && voice !== sounding) sound(voice);
    else if (voice && Math.abs(audio.currentTime - local) > DRIFT_S && local < (audio.duration || Infinity))
      audio.currentTime = local;
    for (const v of sceneVideos(scene)) {
      if (Math.abs(v.currentTime - local) > DRIFT_S && local < (v.duration || Infinity)) v.currentTime = local;
    }
  }

  function place(ms: number, entering: boolean): void {
    const at = sceneAt(spans.value, ms);
    if (at.index < 0) return;
    const changed = at.index !== activeIndex;
    if (changed) {
      activeIndex = at.index;
      deps.showScene(spans.value[at.index].id);
    }
    if (playing.value) syncMedia(at.index, at.localMs, entering || changed);
  }

  function tick(): void {
    frame = null;
    if (!playing.value) return;
    const t = now() - startedAt;
    if (t >= totalMs.value) {
      timeMs.value = totalMs.value;
      pause();
      return;
    }
    timeMs.value = t;
    place(t, false);
    frame = requestFrame(tick);
  }

  function play(): void {
    if (playing.value || totalMs.value === 0) return;
    if (timeMs.value >= totalMs.value) timeMs.value = 0;
    playing.value = true;
    startedAt = now() - timeMs.value;
    activeIndex = -1;
    place(timeMs.value, true);
    frame = requestFrame(tick);
  }

  function pause(): void {
    playing.value = false;
    if (frame !== null) cancelFrame(frame);
    frame = null;
    pauseMedia();
  }

  function toggle(): void {
    if (playing.value) pause();
    else play();
  }

  function seek(ms: number): void {
    timeMs.value = Math.max(0, Math.min(totalMs.value, ms));
    startedAt = now() - timeMs.value;
    place(timeMs.value, true);
  }

  /** Moves the playhead to the start of a scene the user picked (when stopped). */
  function seekToScene(id: string): void {
    if (playing.value) return;
    const span = spans.value.find((s) => s.id === id);
    if (span && sceneAt(spans.value, timeMs.value).index !== spans.value.indexOf(span)) {
      timeMs.value = span.startMs;
      activeIndex = spans.value.indexOf(span);
    }
  }

  /** Another project: stopped, at its start. */
  function reset(): void {
    pause();
    timeMs.value = 0;
    activeIndex = -1;
  }

  // Shorter scenes (or fewer) never leave the playhead past the end ("0:13.0 / 0:05.0").
  watch(totalMs, (total) => {
    if (timeMs.value > total) timeMs.value = total;
  });

  if (getCurrentInstance()) onBeforeUnmount(pause);

  return { playing, timeMs, totalMs, play, pause, toggle, seek, seekToScene, reset };
}
