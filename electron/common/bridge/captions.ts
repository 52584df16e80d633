import { z } from 'zod';
import { Project } from '../composition/document';
import { call } from './contract';

/**
 * Captions: a scene's phrases timed on its voice by the host (it speaks the draft voice or reads the
 * generated voiceover, and finds the pauses with ffmpeg).
 */
export const TimedCue = z.object({ text: z.string(), startMs: z.number().int().min(0), endMs: z.number().int().min(1) });

export const captionsCalls = {
  /** The scene's script cut into phrases and timed on its voice; `heard` says which voice was measured. */
  'captions.time': call(
    z.tuple([Project, z.object({ sceneId: z.string().min(1).max(200) })]),
    z.object({ cues: z.array(TimedCue), heard: z.string(), voiceMs: z.number().int().min(0) }),
  ),
};
