import { computed, type ComputedRef } from 'vue';
import { notePaidAction, type usePaidConfirm } from './paid-confirm';
import { phaseClass, voiceoverHash, type JobView } from '@common/bridge';
import { applyVoiceoverAudio, type Project } from '@common/composition';
import { onEvent } from '@/bridge';
import type { useJobsStore } from '@/stores/jobs';
import type { useProjectStore } from '@/stores/project';
import type { JobQuerySpec } from '@/stores/job-query';
import { useJobQuery } from './job-query';

type ProjectStore = ReturnType<typeof useProjectStore>;
type JobsStore = ReturnType<typeof useJobsStore>;

/** Where a scene's voiceover stands, read from the job engine's jobs (nothing is kept here). */
export type VoiceoverState =
  | { state: 'none' }
  | { state: 'ready' }
  | { state: 'working'; job: JobView }
  | { state: 'problem'; job: JobView; reason: string };

/** The newest voiceover job made for exactly this scene's current script, voice and rate. */
export function voiceoverJob(
  jobs: readonly JobView[],
  projectId: string,
  sceneId: string,
  scriptHash: string,
): JobView | null {
  let newest: JobView | null = null;
  for (const job of jobs) {
    const p = job.purpose;
    if (
      p.type !== 'scene-voiceover' ||
      p.projectId !== projectId ||
      p.sceneId !== sceneId ||
      p.scriptHash !== scriptHash
    )
      continue;
    if (!newest || job.createdAt > newest.createdAt) newest = job;
  }
  return newest;
}

/**
 * The editor's question of the host: the project's newest scene voiceovers (speech jobs made for a
 * scene), enough for every scene's latest script many times over.
 */
export const sceneVoiceovers = (projectId: string): JobQuerySpec => ({
  name: 'scene-voiceovers',
  filter: { projectId, kinds: ['tts'] },
  limit: 200,
  keep: (job) => job.purpose.type === 'scene-voiceover',
});

export function voiceoverState(project: Project, sceneId: string, jobs: readonly JobView[]): VoiceoverState {
  const voice = project.scenes.find((s) => s.id === sceneId)?.voice;
  if (!voice || voice.kind !== 'tts') return { state: 'none' };
  if (voice.audioUrl) return { state: 'ready' };
  const job = voiceoverJob(jobs, project.id, sceneId, voiceoverHash(voice));
  if (!job || job.phase === 'completed') return { state: 'none' };
  if (phaseClass(job.phase) === 'active') return { state: 'working', job };
  const reason =
    job.phase === 'stalled'
      ? `The studio stopped checking on it: ${job.error?.explanation ?? 'no answer from the service'}`
      : (job.error?.explanation ?? `The speech job ended as ${job.phase}.`);
  return { state: 'problem', job, reason };
}

/**
 * Puts finished voiceovers into the open project. The reactor in the host has already written them into
 * the project's file; this applies the same audio to the document being edited, whatever is selected
 * and whichever workspace is showing. Installed once, for the life of the page.
 */
export function listenForVoiceovers(project: ProjectStore): () => void {
  return onEvent('projects.voiceoverReady', ({ projectId, sceneId, scriptHash, audioUrl }) => {
    if (project.doc.id !== projectId) return;
    const next = applyVoiceoverAudio(project.doc, sceneId, scriptHash, audioUrl);
    if (next && next !== project.doc) {
      const voice = next.scenes.find((s) => s.id === sceneId)?.voice ?? null;
      project.setSceneVoice(sceneId, voice);
    }
  });
}

/**
 * Generates a scene's voiceover with the service's TTS through the job engine. The job carries its
 * purpose (project, scene, the script's key), so the host's reactor puts the audio in place when it
 * completes, even if the editor was closed meanwhile.
 */
export function useVoiceover(
  project: ProjectStore,
  jobs: JobsStore,
  onError: (message: string) => void,
  confirmPaid: ReturnType<typeof usePaidConfirm>['confirmPaid'],
) {
  // Asked again when another project is opened; the host's news keeps it current.
  const sceneJobs = useJobQuery(jobs, () => sceneVoiceovers(project.doc.id));
  function state(sceneId: string): ComputedRef<VoiceoverState> {
    return computed(() => voiceoverState(project.doc, sceneId, sceneJobs.value));
  }

  async function generate(sceneId: string): Promise<void> {
    const voice = project.doc.scenes.find((s) => s.id === sceneId)?.voice;
    if (!voice || voice.kind !== 'tts') return;
    if (voiceoverState(project.doc, sceneId, sceneJobs.value).state === 'working') return;
    if (!voice.text.trim() || !voice.voiceId) {
      onError('Choose a voice and write the script first.');
      return;
    }
    try {
      const body = { input_text: voice.text, voice_id: voice.voiceId, rate: voice.rate };
      const confirmation = await confirmPaid({
        title: 'Generate this voiceover?',
        items: [{ action: 'tts', body }],
        what: `The voiceover of scene ${project.doc.scenes.findIndex((s) => s.id === sceneId) + 1} (${voice.text.trim().split(/\s+/).length} words), made by the service's text to speech.`,
      });
      if (!confirmation) return;
      await jobs.submitWithConfirm(
        {
          kind: 'tts',
          body,
          confirmation,
          projectId: project.doc.id,
          purpose: { type: 'scene-voiceover', projectId: project.doc.id, sceneId, scriptHash: voiceoverHash(voice) },
        },
        // The same script and voice again (a retry): sending it again is what the user asked for.
        async () => true,
      );
      notePaidAction();
    } catch (error) {
      onError(`The voiceover could not be requested: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return { state, generate };
}
