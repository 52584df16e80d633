import { z } from 'zod';
import { Project } from '../composition/document';
import { call } from './contract';
import { PREVIEW_CHUNK_BYTES, PreviewChunk } from './preview';

/**
 * Music under the voice: at submit the page asks the host for each scene's mix (the same mix the
 * local preview plays) and sends it as the scene's voice; the upload step links it like a chosen file.
 */
export const MusicMix = z.object({
  /** A file: reference the host granted: the scene's voice with its music under it, as an MP3. */
  url: z.string(),
  /** The mix's file name, for music.read: the editor's canvas playback plays it from the page. */
  fileId: z.string(),
  durationMs: z.number(),
  /** The mix's integrated loudness as measured, LUFS (null for silence). */
  lufs: z.number().nullable(),
  /** 'linear' (one gain), 'dynamic' (loudnorm compressed to keep the true peak) or 'none'. */
  normalization: z.string(),
});
export type MusicMix = z.infer<typeof MusicMix>;

export const musicCalls = {
  /** One scene's mix of its music under its voice; fails with the reason (a music file it cannot read, no voice audio yet, ...). */
  'music.mix': call(z.tuple([z.object({ project: Project, sceneId: z.string().min(1).max(200) })]), MusicMix),
  /**
   * One part of a scene sent in parts (its elements timed inside it): the piece of its sound (the music
   * mix, or the voice) that plays in that part, named in the body by `reference` (scene-parts.ts).
   */
  'music.voicePart': call(
    z.tuple([z.object({ project: Project, reference: z.string().min(1).max(400) })]),
    z.object({ url: z.string() }),
  ),
  /** A mix read back in chunks (as preview.read), so the page can play it on the canvas. */
  'music.read': call(
    z.tuple([
      z.string().regex(/^mix-[0-9a-f]{8,64}\.mp3$/, 'a file id from music.mix'),
      z.number().int().min(0),
      z.number().int().min(1).max(PREVIEW_CHUNK_BYTES),
    ]),
    PreviewChunk,
  ),
};
