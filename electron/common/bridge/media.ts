import { z } from 'zod';
import { MediaInfo } from '../composition/media-info';
import { call } from './contract';

/**
 * Media inspection with ffprobe: duration, size, frame rate, codecs, sound. The pure pre-checks
 * (lipSyncChecks, characterSwapChecks in common/composition) run on the answer in the renderer.
 */
export const ChosenMedia = z.object({
  /** A file: URL the host handed out; usable in projects and with media.probe. */
  url: z.string(),
  name: z.string(),
  info: MediaInfo,
});
export type ChosenMedia = z.infer<typeof ChosenMedia>;

export const mediaCalls = {
  /** An http(s) link, or a file: URL previously returned by media.chooseFile. */
  'media.probe': call(z.tuple([z.string().min(1).max(4096)]), MediaInfo),
  /** Native open dialog for a local media file; null when cancelled. Fails on a host without dialogs. */
  'media.chooseFile': call(z.tuple([z.object({ kind: z.enum(['image', 'video', 'audio', 'any']) })]), ChosenMedia.nullable()),
};
