import { z } from 'zod';
import { Project } from '../composition/document';
import { call } from './contract';

/**
 * Captions: a scene's phrases timed on its voice by the host (it speaks the draft voice or reads the
 * generated voiceover, and finds the pauses with ffmpeg).
 */
export const TimedCue = z.object({
  text: z.string(),
  startMs: z.number().int().min(0),
  endMs: z.number().int().min(1),
});

export const captionsCalls = {
  /** The scene's script cut into phrases and timed on its voice; `heard` says which voice was measured. */
  'captions.time': call(
    z.tuple([Project, z.object({ sceneId: z.string().min(1).max(200) })]),
    z.object({ cues: z.array(TimedCue), heard: z.string(), voiceMs: z.number().int().min(0) }),
  ),
};

/** A burn-in of captions into a local copy of a saved result, as it goes. */
export const CaptionBurnEvent = z.object({
  burnId: z.string(),
  downloadId: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  /** 0..1 */
  fraction: z.number(),
  /** The copy, once written. */
  path: z.string().nullable(),
  message: z.string().nullable(),
});
export type CaptionBurnEvent = z.infer<typeof CaptionBurnEvent>;

export const captionsBurnCalls = {
  /**
   * Burns the project's captions into a copy of this saved download ("<name> (captions).mp4" beside
   * it); answers at once, progress and the outcome arrive as captions.burning events.
   */
  'captions.burn': call(
    z.tuple([z.object({ downloadId: z.string().min(1).max(100) })]),
    z.object({ burnId: z.string() }),
  ),
};

export const captionsEvents = {
  'captions.burning': CaptionBurnEvent,
};
