import type { captionsCalls } from '../../common/bridge/captions';
import { findScene } from '../../common/composition/project-ops';
import { sceneScript, sceneScriptProblem } from '../../common/captions/caption-ops';
import { StudioError } from '../host/errors';
import type { DomainModule } from '../host/types';
import type { MediaToolkit } from './toolkit';
import { captionsFor } from './voice-pauses';

/**
 * captions.time: a scene's script timed on the voice that will speak it. The generated voiceover (or
 * the scene's recording) is measured when there is one; otherwise the draft voice speaks the script
 * here, the same engine the sandbox speaks with, so the times are a close draft of the service's.
 */
export function createCaptionsDomain(
  media: Pick<MediaToolkit, 'runner' | 'binary' | 'cache' | 'prober' | 'draftVoice'>,
): DomainModule<typeof captionsCalls> {
  return {
    handlers: {
      'captions.time': async (project, { sceneId }) => {
        let scene;
        try {
          scene = findScene(project, sceneId).scene;
        } catch {
          throw new StudioError(`The project has no scene "${sceneId}".`, 'not-found');
        }
        const script = sceneScript(scene);
        if (!script) throw new StudioError(sceneScriptProblem(scene) ?? 'Nothing to caption.', 'no-script');
        let path: string;
        let heard: string;
        try {
          if (script.audioUrl) {
            path = await media.cache.localPath(script.audioUrl);
            heard = 'the generated voiceover';
          } else {
            const spoken = await media.draftVoice.speak(script.text, script.voiceId, script.rate);
            path = spoken.path;
            heard = `the draft voice (${spoken.description}); make captions again once the voiceover is generated for the service's timing`;
          }
        } catch (error) {
          throw new StudioError(
            `The scene's voice could not be heard to time its captions: ${(error as Error).message}`,
            'voice-unavailable',
          );
        }
        const info = await media.prober.probe(path);
        const voiceMs = Math.round(info.durationMs ?? 0);
        if (voiceMs <= 0)
          throw new StudioError(
            "The scene's voice has no length ffprobe can read, so its captions cannot be timed.",
            'voice-unavailable',
          );
        const cues = await captionsFor(media.runner, await media.binary('ffmpeg'), script.text, path, voiceMs);
        return { cues, heard, voiceMs };
      },
    },
  };
}
