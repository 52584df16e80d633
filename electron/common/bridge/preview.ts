import { z } from 'zod';
import { Project } from '../composition/document';
import { call } from './contract';

/**
 * Local renders with ffmpeg. `preview.render` answers at once with an id; progress, completion and
 * failure arrive as events. The finished file is read back in chunks with `preview.read` (the renderer
 * assembles a Blob and plays it from a blob: URL, which works the same in Electron and in the browser).
 */
export const RenderQuality = z.enum(['preview', 'draft']);
export type RenderQuality = z.infer<typeof RenderQuality>;

export const PreviewProgress = z.object({
  renderId: z.string(),
  /** 0..1 */
  fraction: z.number(),
  outTimeMs: z.number(),
  /** Multiple of real time, when ffmpeg reports it. */
  speed: z.number().nullable(),
});
export type PreviewProgress = z.infer<typeof PreviewProgress>;

export const PreviewDone = z.object({
  renderId: z.string(),
  /** Pass to preview.read. */
  fileId: z.string(),
  sizeBytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  durationMs: z.number(),
  mimeType: z.literal('video/mp4'),
  /** What the preview could not show (a voiceover not generated yet, ...). */
  notes: z.array(z.string()),
  /** Each text spoken by a local draft voice instead of the service's (where, and which voice). */
  draftVoices: z.array(z.string()),
  /** The length is the speech's (a talking avatar lasts as long as its speech), not the scene's. */
  followsSpeech: z.boolean(),
});
export type PreviewDone = z.infer<typeof PreviewDone>;

export const PreviewFailed = z.object({
  renderId: z.string(),
  /** Names the scene and element concerned when one is. */
  message: z.string(),
  cancelled: z.boolean(),
});
export type PreviewFailed = z.infer<typeof PreviewFailed>;

export const PreviewChunk = z.object({
  /** Base64 of the bytes from `offset`. */
  base64: z.string(),
  offset: z.number().int(),
  totalBytes: z.number().int(),
  done: z.boolean(),
});
export type PreviewChunk = z.infer<typeof PreviewChunk>;

export const Poster = z.object({
  /** data:image/jpeg;base64,... */
  dataUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type Poster = z.infer<typeof Poster>;

/** Largest chunk preview.read returns. */
export const PREVIEW_CHUNK_BYTES = 4 * 1024 * 1024;

export const previewCalls = {
  'preview.render': call(z.tuple([Project, z.object({ quality: RenderQuality })]), z.object({ renderId: z.string() })),
  /** False when the render already ended. */
  'preview.cancel': call(z.tuple([z.string().min(1).max(100)]), z.boolean()),
  /**
   * Gets the project's media ready for a preview in the background (fetched, inspected, proxied at low
   * priority); media no longer in the project stop being prepared. Call it as the project changes.
   */
  'preview.prepare': call(z.tuple([Project]), z.object({ inputs: z.number().int(), working: z.number().int() })),
  /** One frame at a time on the timeline (ms), at preview size. */
  'preview.poster': call(z.tuple([Project, z.object({ atMs: z.number().min(0) })]), Poster),
  'preview.read': call(
    z.tuple([
      z.string().regex(/^[A-Za-z0-9_.-]{1,200}\.mp4$/, 'a file id from preview.done'),
      z.number().int().min(0),
      z.number().int().min(1).max(PREVIEW_CHUNK_BYTES),
    ]),
    PreviewChunk,
  ),
};

export const previewEvents = {
  'preview.progress': PreviewProgress,
  'preview.done': PreviewDone,
  'preview.failed': PreviewFailed,
};
