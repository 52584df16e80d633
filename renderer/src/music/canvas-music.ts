import { getCurrentInstance, onBeforeUnmount, provide, shallowRef, watch, type InjectionKey } from 'vue';
import { musicPlans, musicVoiceOf, type Project } from '@common/composition';
import { call } from '@/bridge';
import { readBackBlobUrl } from '@/views/editor/preview-file';

/** Where a scene's music stands for the canvas's playback. */
export type CanvasMusicState =
  { state: 'mixing' } | { state: 'ready'; url: string } | { state: 'failed'; reason: string };

/** The host's mix of a scene (music.mix), read back as something the page can play. */
export type MixLoader = (project: Project, sceneId: string) => Promise<string>;

/** The mix the host makes for Preview and submit, read back into the page as a blob: URL. */
export const hostMix: MixLoader = async (project, sceneId) => {
  const mix = await call('music.mix', { project, sceneId });
  return readBackBlobUrl((offset, length) => call('music.read', mix.fileId, offset, length), 'audio/mpeg');
};

/**
 * The music under the voice for the editor's canvas playback: the page cannot mix, so each scene with
 * music gets the host's own mix (the one Preview plays and submit sends), read back and played in
 * place of the bare voice. A mix is asked for again only when what it is made of changes (the plan and
 * the voice); until it is ready, and when it cannot be made, the voice plays alone and the music row
 * says so with the reason.
 */
export class CanvasMusic {
  /** By scene id: the state of the mix of what the scene is now. */
  readonly states = shallowRef(new Map<string, CanvasMusicState>());
  /** By scene id: what the state above was made from. */
  private readonly made = new Map<string, string>();

  constructor(private readonly load: MixLoader = hostMix) {}

  /** The blob: URL to play for a scene instead of its voice; undefined while there is none. */
  soundOf(sceneId: string): string | undefined {
    const state = this.states.value.get(sceneId);
    return state?.state === 'ready' ? state.url : undefined;
  }

  /** What each scene's mix is made of: its music plan and the voice under it. */
  static ingredients(project: Project): Map<string, string> {
    return new Map(
      musicPlans(project).map((plan) => [
        plan.sceneId,
        JSON.stringify([plan, musicVoiceOf(project, project.scenes[plan.sceneIndex])]),
      ]),
    );
  }

  /** Asks for the mix of every scene whose music or voice changed since (and forgets scenes without music). */
  prepare(project: Project): void {
    const wanted = CanvasMusic.ingredients(project);
    for (const sceneId of [...this.made.keys()]) if (!wanted.has(sceneId)) this.forget(sceneId);
    for (const [sceneId, key] of wanted) {
      if (this.made.get(sceneId) === key) continue;
      this.forget(sceneId);
      this.made.set(sceneId, key);
      this.set(sceneId, { state: 'mixing' });
      this.load(project, sceneId).then(
        (url) =>
          this.made.get(sceneId) === key ? this.set(sceneId, { state: 'ready', url }) : URL.revokeObjectURL(url),
        (error: unknown) =>
          this.made.get(sceneId) === key && this.set(sceneId, { state: 'failed', reason: (error as Error).message }),
      );
    }
  }

  dispose(): void {
    for (const sceneId of [...this.made.keys()]) this.forget(sceneId);
  }

  private forget(sceneId: string): void {
    const state = this.states.value.get(sceneId);
    if (state?.state === 'ready') URL.revokeObjectURL(state.url);
    this.made.delete(sceneId);
    if (state) {
      const next = new Map(this.states.value);
      next.delete(sceneId);
      this.states.value = next;
    }
  }

  private set(sceneId: string, state: CanvasMusicState): void {
    this.states.value = new Map(this.states.value).set(sceneId, state);
  }
}

/** The editor's CanvasMusic, for the timeline's music row to say how each scene's music plays. */
export const CANVAS_MUSIC: InjectionKey<CanvasMusic> = Symbol('canvas music');

/** Settings changes come in bursts (a slider dragged): the mix is asked for once they settle. */
const SETTLE_MS = 600;

/**
 * The editor's CanvasMusic: mixes follow the open project's music and voices (once a change settles),
 * the timeline's music row reads their states, and they are let go with the editor.
 */
export function useCanvasMusic(project: () => Project, load?: MixLoader): CanvasMusic {
  const music = new CanvasMusic(load);
  let timer: ReturnType<typeof setTimeout> | undefined;
  watch(
    () => [...CanvasMusic.ingredients(project()).values()].join('\n'),
    () => {
      clearTimeout(timer);
      timer = setTimeout(() => music.prepare(project()), SETTLE_MS);
    },
    { immediate: true },
  );
  if (getCurrentInstance()) {
    provide(CANVAS_MUSIC, music);
    onBeforeUnmount(() => {
      clearTimeout(timer);
      music.dispose();
    });
  }
  return music;
}
