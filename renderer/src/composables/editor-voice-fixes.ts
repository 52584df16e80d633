import { watch } from 'vue';
import {
  fitScenesToVoices,
  followsVoice,
  replaceVoiceAudio,
  voiceAudioUrl,
  type LinkReport,
  type Problem,
} from '@common/composition';
import type { ChosenMedia } from '@common/bridge/media';
import { call } from '@/bridge';
import type { useProjectStore } from '@/stores/project';

type ProjectStore = ReturnType<typeof useProjectStore>;
export type TrimAudioCall = (url: string, durationMs: number, name: string) => Promise<ChosenMedia>;

const bridgeTrimAudio: TrimAudioCall = (url, durationMs, name) => call('media.trimAudio', url, { durationMs, name });

/** The file name a link or file: URL ends with ("voice.mp3"), for naming the trimmed copy. */
function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0].split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || 'voice';
  } catch {
    return last || 'voice';
  }
}

/**
 * The one-click fixes for a voice longer than its scene: Fit scene to voice (the scene grows), Trim
 * voice (the host cuts a copy of the voice to the scene, fading out, and the scene speaks that copy;
 * a local file, uploaded with the job), and the project option that keeps every scene as long as its
 * voice. Each is one undo step.
 */
export function useVoiceFixes(
  project: ProjectStore,
  reports: () => ReadonlyMap<string, LinkReport>,
  notify: { success(text: string): unknown; error(text: string): unknown },
  trimAudio: TrimAudioCall = bridgeTrimAudio,
) {
  function fitVoice(problem: Problem): void {
    if (!problem.sceneId) return;
    const sceneId = problem.sceneId;
    if (project.apply((p) => fitScenesToVoices(p, reports(), [sceneId])))
      notify.success('The scene now lasts as long as its voice');
  }

  async function trimVoice(problem: Problem): Promise<void> {
    const scene = project.doc.scenes.find((s) => s.id === problem.sceneId);
    const url = scene?.voice ? voiceAudioUrl(scene.voice) : null;
    if (!scene || !url) return;
    const { id, durationMs } = scene;
    try {
      const trimmed = await trimAudio(url, durationMs, fileNameOf(url));
      // Not over a voice or a length changed while the copy was made.
      const now = project.doc.scenes.find((s) => s.id === id);
      if (!now?.voice || voiceAudioUrl(now.voice) !== url || now.durationMs !== durationMs) return;
      if (project.apply((p) => replaceVoiceAudio(p, id, trimmed.url) ?? p)) {
        notify.success(
          `The voice now ends with the scene at ${(durationMs / 1000).toFixed(1)} s (${trimmed.name}, uploaded with the job)`,
        );
      }
    } catch (error) {
      notify.error(`The voice could not be trimmed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // Scenes that follow their voice (theirs or the project's choice) take its length once the host measured it.
  const following = (p: typeof project.doc): string[] => p.scenes.filter((s) => followsVoice(p, s)).map((s) => s.id);
  watch(
    () => [following(project.doc).join('\n'), reports()] as const,
    ([ids, found]) => {
      if (ids) project.apply((p) => fitScenesToVoices(p, found, following(p)));
    },
  );

  return { fitVoice, trimVoice };
}
