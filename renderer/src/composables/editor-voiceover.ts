import { ref, watch } from 'vue';
import type { TtsVoice } from '@common/composition';
import type { useJobsStore } from '@/stores/jobs';
import type { useProjectStore } from '@/stores/project';

type ProjectStore = ReturnType<typeof useProjectStore>;
type JobsStore = ReturnType<typeof useJobsStore>;

interface Pending {
  jobId: string;
  sceneId: string;
  /** The voiceover as it was sent; the result is used only if the scene still asks for exactly it. */
  voice: TtsVoice;
}

/**
 * Generates a scene's voiceover with the service's TTS through the job engine, and puts the audio link
 * into the scene when the job completes (an avatar video needs the audio itself, not just the text).
 */
export function useVoiceover(project: ProjectStore, jobs: JobsStore, onError: (message: string) => void) {
  const pending = ref<Pending[]>([]);

  function isPending(sceneId: string): boolean {
    return pending.value.some((p) => p.sceneId === sceneId);
  }

  async function generate(sceneId: string): Promise<void> {
    const scene = project.doc.scenes.find((s) => s.id === sceneId);
    const voice = scene?.voice;
    if (!voice || voice.kind !== 'tts' || isPending(sceneId)) return;
    if (!voice.text.trim() || !voice.voiceId) {
      onError('Choose a voice and write the script first.');
      return;
    }
    try {
      const job = await jobs.submitWithConfirm(
        { kind: 'tts', body: { input_text: voice.text, voice_id: voice.voiceId, rate: voice.rate }, projectId: project.doc.id },
        // The same script and voice again: reuse is what the user wants here, so send it again.
        async () => true,
      );
      if (job) pending.value = [...pending.value, { jobId: job.id, sceneId, voice }];
    } catch (error) {
      onError(`The voiceover could not be requested: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  watch(
    () => [jobs.byId, pending.value] as const,
    () => {
      for (const p of pending.value) {
        const job = jobs.byId.get(p.jobId);
        if (!job || (job.phase !== 'completed' && job.phase !== 'failed' && job.phase !== 'outcome-unknown')) continue;
        pending.value = pending.value.filter((q) => q !== p);
        if (job.phase !== 'completed' || !job.resultUrl) {
          onError(`The voiceover was not generated: ${job.error?.explanation ?? job.phase}`);
          continue;
        }
        const now = project.doc.scenes.find((s) => s.id === p.sceneId)?.voice;
        const same = now?.kind === 'tts' && now.text === p.voice.text && now.voiceId === p.voice.voiceId && now.rate === p.voice.rate;
        if (same) project.setSceneVoice(p.sceneId, { ...now, audioUrl: job.resultUrl });
      }
    },
    { deep: false },
  );

  return { pending, isPending, generate };
}
