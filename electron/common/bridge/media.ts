import { z } from 'zod';
import { LinkReport } from '../composition/link-checks';
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

export const MediaFrame = z.object({
  /** data:image/jpeg;base64,... */
  dataUrl: z.string(),
});
export type MediaFrame = z.infer<typeof MediaFrame>;

export const Waveform = z.object({
  /** Peak level per bucket, 0..1, across the whole sound track. */
  peaks: z.array(z.number()),
  durationMs: z.number(),
});
export type Waveform = z.infer<typeof Waveform>;

const mediaReference = z.string().min(1).max(4096);

export const mediaCalls = {
  /** An http(s) link, or a file: URL previously returned by media.chooseFile. */
  'media.probe': call(z.tuple([mediaReference]), MediaInfo),
  /** A still frame (thumbnail, filmstrip); same references as media.probe. */
  'media.frame': call(
    z.tuple([mediaReference, z.object({ atMs: z.number().min(0), width: z.number().int().min(16).max(1920) })]),
    MediaFrame,
  ),
  /** Peaks for drawing a waveform; same references as media.probe. */
  'media.waveform': call(z.tuple([mediaReference, z.object({ buckets: z.number().int().min(1).max(4000) })]), Waveform),
  /**
   * Pre-flight of a project's links (reachable, really media, kind and duration); reports are reused
   * for a few minutes unless `fresh`, which asks every server again (the Create dialog does).
   */
  'media.checkLinks': call(
    z.tuple([z.object({ urls: z.array(mediaReference).max(1000), fresh: z.boolean().optional() })]),
    z.array(LinkReport),
  ),
  /**
   * A copy of a sound cut to its first `durationMs` (fading out at the end), kept in the data folder
   * and granted like a chosen file: a scene's voice that runs past the scene ("Trim voice").
   */
  'media.trimAudio': call(
    z.tuple([
      mediaReference,
      z.object({ durationMs: z.number().int().min(200).max(3_600_000), name: z.string().max(200).optional() }),
    ]),
    ChosenMedia,
  ),
  /** Native open dialog for a local media file; null when cancelled. Fails on a host without dialogs. */
  'media.chooseFile': call(
    z.tuple([z.object({ kind: z.enum(['image', 'video', 'audio', 'any']) })]),
    ChosenMedia.nullable(),
  ),
};
